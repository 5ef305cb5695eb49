-- Pickers for what Lathe offers in a session: modes, a model option, the
-- effort, past sessions (reopened or deleted). Each says so plainly when Lathe does not offer it.
local client = require('lathe.client')
local chat = require('lathe.chat')
local M = {}

local function notify(msg, level) vim.notify('Lathe: ' .. msg, level or vim.log.levels.INFO) end
local function ensure_setup() if not require('lathe').did_setup then require('lathe').setup({}) end end

local function pick(items, prompt, fmt, cb)
  vim.ui.select(items, { prompt = prompt, format_item = fmt }, function(choice) if choice then cb(choice) end end)
end

-- :LatheMode [id]: the modes Lathe offers for this session.
function M.mode(arg)
  ensure_setup()
  client.with_session(function(err)
    if err then return notify(err.message or 'not running', vim.log.levels.ERROR) end
    local modes = client.modes()
    if not modes or not modes.availableModes or #modes.availableModes == 0 then
      return notify('Lathe offers no modes for this session')
    end
    local function set(id)
      client.set_mode(id, function(e)
        if e then notify('cannot set mode ' .. id .. ': ' .. (e.message or ''), vim.log.levels.ERROR)
        else notify('mode ' .. id) end
      end)
    end
    if arg and arg ~= '' then return set(arg) end
    pick(modes.availableModes, 'Lathe mode', function(m) return m.name .. (m.description and (' — ' .. m.description) or '') end,
      function(m) set(m.id) end)
  end)
end

-- Flattens grouped select options.
function M.select_values(option)
  local out = {}
  for _, o in ipairs(option.options or {}) do
    if o.options then vim.list_extend(out, o.options) else out[#out + 1] = o end
  end
  return out
end

-- A picker over one of Lathe's config options (`get` finds it in the session),
-- set from `arg` or chosen; `what` names it in the messages.
local function option_picker(get, what, none, prompt, label)
  return function(arg)
    ensure_setup()
    client.with_session(function(err)
      if err then return notify(err.message or 'not running', vim.log.levels.ERROR) end
      local option = get()
      if not option then return notify(none) end
      local function set(value)
        client.set_config(option.id, value, function(e)
          if e then notify('cannot set the ' .. what .. ': ' .. (e.message or ''), vim.log.levels.ERROR)
          else notify(what .. ' ' .. value) end
        end)
      end
      if arg and arg ~= '' then return set(arg) end
      pick(M.select_values(option), prompt, label, function(v) set(v.value) end)
    end)
  end
end

-- :LatheModel [value]: only when Lathe offers a model config option.
M.model = option_picker(client.model_option, 'model', 'Lathe does not offer a model choice for this session',
  'Lathe model', function(v) return v.name or v.value end)

-- :LatheEffort [value]: how much the model thinks, when Lathe offers it (config
-- option of category thought_level); it applies from the next request.
M.effort = option_picker(client.effort_option, 'effort', 'the model of this session has no effort to choose',
  'Lathe effort (from the next request)',
  function(v) return (v.name or v.value) .. (v.description and (' — ' .. v.description) or '') end)

-- The past sessions of this folder, the open one left out: cb(sessions) when
-- Lathe supports `supported` (else says why).
local function past_sessions(supported, unsupported, cb)
  ensure_setup()
  client.with_session(function(err)
    if err then return notify(err.message or 'not running', vim.log.levels.ERROR) end
    if not supported() then return notify(unsupported) end
    client.list_sessions(function(lerr, sessions)
      if lerr then return notify('cannot list sessions: ' .. (lerr.message or ''), vim.log.levels.ERROR) end
      local open = client.session and client.session.id
      sessions = vim.tbl_filter(function(s) return s.sessionId ~= open end, sessions)
      if #sessions == 0 then return notify('no past sessions here') end
      cb(sessions)
    end)
  end)
end

local function session_label(s) return (s.title or s.sessionId) .. (s.updatedAt and ('  ' .. s.updatedAt) or '') end

-- :LatheDeleteSession: pick a past session, confirm, and Lathe deletes its
-- record (session/delete), when it offers that; the lists forget it.
function M.delete_session()
  past_sessions(client.can_delete, 'deleting sessions is not supported by this Lathe (no session/delete)', function(sessions)
    pick(sessions, 'Delete session', session_label, function(s)
      local name = s.title or s.sessionId
      pick({ 'Delete', 'Keep' }, ('Delete "%s" for good? It cannot be reopened after.'):format(name), nil, function(answer)
        if answer ~= 'Delete' then return notify('kept ' .. name) end
        client.delete_session(s.sessionId, function(e)
          if e then return notify(('could not delete %s: %s'):format(name, e.message or ''), vim.log.levels.ERROR) end
          notify('deleted ' .. name)
        end)
      end)
    end)
  end)
end

-- :LatheSessions: reopen a past session, only when Lathe supports listing and loading.
function M.sessions()
  past_sessions(client.can_reopen, 'reopening past sessions is not supported by this Lathe (no session/list and session/load)',
    function(sessions)
      pick(sessions, 'Reopen session', session_label, function(s)
        chat.open()
        client.load_session(s.sessionId, function(e)
          if not e then
            chat.apply(chat.transcript:stale_children()) -- replayed children are history: none runs now
            return require('lathe.review_files').show_pending()
          end
          -- Said in the chat too, under the conversation that stays open.
          local why = ('Could not reopen the session %s: %s'):format(s.title or s.sessionId, e.message or '')
          chat.apply(chat.transcript:notice(why))
          notify(why, vim.log.levels.ERROR)
        end)
      end)
    end)
end

return M
