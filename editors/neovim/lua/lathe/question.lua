-- elicitation/create: a question from Lathe (its ask_user tool, or an MCP
-- server's own) as a form read from the request's schema. Each field is asked
-- in turn with vim.ui.select or vim.ui.input, then Submit, Decline or Cancel;
-- a URL question offers to open its link. Every question is answered exactly
-- once, and Lathe may withdraw one it no longer needs ($/cancel_request).
local M = { open = {}, links = {}, next_id = 1 }

-- Set by lathe.init: a question was asked, or settled (re-render its block).
M.on_asked = function() end
M.on_settled = function() end

local function options_of(list)
  if type(list) ~= 'table' then return nil end
  local out = {}
  for _, o in ipairs(list) do
    if type(o) == 'table' then out[#out + 1] = { value = tostring(o.const), title = tostring(o.title or o.const) }
    else out[#out + 1] = { value = tostring(o), title = tostring(o) } end
  end
  return out
end

-- The form's fields in the schema's order (its properties keep their order
-- only as Lathe sent them: vim.json loses it, so the names are sorted, q1 before q2).
function M.fields(schema)
  schema = type(schema) == 'table' and schema or {}
  local props, required, names = schema.properties or {}, {}, {}
  for _, n in ipairs(schema.required or {}) do required[n] = true end
  for name in pairs(props) do names[#names + 1] = name end
  table.sort(names)
  local out = {}
  for _, name in ipairs(names) do
    local p = props[name]
    local f = { name = name, title = p.title or name, description = p.description, required = required[name] == true,
      default = p.default, minimum = p.minimum, maximum = p.maximum, format = p.format }
    if p.type == 'boolean' then f.type = 'boolean'
    elseif p.type == 'number' or p.type == 'integer' then f.type = p.type
    elseif p.type == 'array' then
      f.type, f.options = 'multi', options_of((p.items or {}).anyOf or (p.items or {}).enum) or {}
    else
      f.options = options_of(p.oneOf or p.enum)
      f.type = f.options and 'choice' or 'text'
    end
    out[#out + 1] = f
  end
  return out
end

-- The answer content for what the person gave, or the first problem naming the field.
function M.content(fields, values)
  local content = {}
  for _, f in ipairs(fields) do
    local v = values[f.name]
    local empty = v == nil or v == '' or (type(v) == 'table' and #v == 0)
    if f.type == 'boolean' then
      if v ~= nil then content[f.name] = v == true end
    elseif empty then
      if f.required then return nil, f.title .. ': an answer is needed' end
    elseif f.type == 'number' or f.type == 'integer' then
      local n = tonumber(v)
      if not n or (f.type == 'integer' and n % 1 ~= 0) then
        return nil, f.title .. ': must be ' .. (f.type == 'integer' and 'a whole number' or 'a number')
      end
      if f.minimum and n < f.minimum then return nil, f.title .. ': at least ' .. f.minimum end
      if f.maximum and n > f.maximum then return nil, f.title .. ': at most ' .. f.maximum end
      content[f.name] = n
    else
      content[f.name] = v
    end
  end
  return content
end

local function title_of(f, value)
  for _, o in ipairs(f.options or {}) do if o.value == value then return o.title end end
  return tostring(value)
end

-- A short line of what was answered.
function M.summary(fields, content)
  local parts = {}
  for _, f in ipairs(fields) do
    local v = content[f.name]
    if v ~= nil then
      local shown = type(v) == 'table' and table.concat(vim.tbl_map(function(x) return title_of(f, x) end, v), ', ')
        or title_of(f, v)
      parts[#parts + 1] = f.title .. ': ' .. shown
    end
  end
  return #parts > 0 and table.concat(parts, ' · ') or 'no answers given'
end

local function settle(q, state, result, summary)
  if q.state ~= 'open' then return end
  q.state, q.summary = state, summary
  for i, o in ipairs(M.open) do if o == q then table.remove(M.open, i) break end end
  if result then q.reply(result) end -- withdrawn: the peer answers -32800
  M.on_settled(q)
end

local function finish(q, action)
  if action == 'decline' then return settle(q, 'decline', { action = 'decline' }) end
  settle(q, 'cancel', { action = 'cancel' })
end

local function prompt_of(q, f)
  local text = q.message .. ' — ' .. f.title .. (f.required and ' *' or '')
  if f.description and f.description ~= '' then text = text .. ': ' .. f.description:gsub('\n', ' ') end
  return text
end

-- The person leaves the form: decline or cancel (dismissed: cancel).
local function leave(q)
  vim.ui.select({ 'Decline', 'Cancel' }, { prompt = q.message .. ' — leave the questions' }, function(choice)
    finish(q, choice == 'Decline' and 'decline' or 'cancel')
  end)
end

local ask_field

-- After the last field: Submit (checked against the form), Decline or Cancel.
local function submit(q)
  if q.state ~= 'open' then return end
  vim.ui.select({ 'Submit', 'Decline', 'Cancel' }, { prompt = q.message .. ' — send your answers?' }, function(choice)
    if q.state ~= 'open' then return end
    if choice ~= 'Submit' then return finish(q, choice == 'Decline' and 'decline' or 'cancel') end
    local content, problem = M.content(q.fields, q.values)
    if not content then
      vim.notify('Lathe: ' .. problem, vim.log.levels.WARN)
      return ask_field(q, 1)
    end
    settle(q, 'accept', { action = 'accept', content = next(content) and content or vim.empty_dict() }, M.summary(q.fields, content))
  end)
end

function ask_field(q, i)
  if q.state ~= 'open' then return end
  local f = q.fields[i]
  if not f then return submit(q) end
  local nxt = function() ask_field(q, i + 1) end
  if f.type == 'text' or f.type == 'number' or f.type == 'integer' then
    local default = q.values[f.name] or f.default
    return vim.ui.input({ prompt = prompt_of(q, f) .. ': ', default = default ~= nil and tostring(default) or nil }, function(text)
      if q.state ~= 'open' then return end
      if text == nil then return leave(q) end
      q.values[f.name] = text
      nxt()
    end)
  end
  if f.type == 'multi' then
    local picked = {}
    for _, v in ipairs(q.values[f.name] or f.default or {}) do picked[v] = true end
    local function again()
      local items = { { done = true } }
      for _, o in ipairs(f.options) do items[#items + 1] = o end
      vim.ui.select(items, { prompt = prompt_of(q, f) .. ' (pick each, then Done)',
        format_item = function(o) return o.done and 'Done' or ((picked[o.value] and '[x] ' or '[ ] ') .. o.title) end },
        function(choice)
          if q.state ~= 'open' then return end
          if not choice then return leave(q) end
          if not choice.done then picked[choice.value] = not picked[choice.value]; return again() end
          local values = {}
          for _, o in ipairs(f.options) do if picked[o.value] then values[#values + 1] = o.value end end
          q.values[f.name] = values
          nxt()
        end)
    end
    return again()
  end
  local items = f.type == 'boolean' and { { value = true, title = 'Yes' }, { value = false, title = 'No' } } or f.options
  if not f.required then items = vim.list_extend(vim.deepcopy(items), { { skip = true, title = '(no answer)' } }) end
  vim.ui.select(items, { prompt = prompt_of(q, f), format_item = function(o) return o.title end }, function(choice)
    if q.state ~= 'open' then return end
    if not choice then return leave(q) end
    if choice.skip then q.values[f.name] = nil else q.values[f.name] = choice.value end
    nxt()
  end)
end

local function open_url(url)
  if vim.ui.open then return vim.ui.open(url) end -- Neovim 0.10+
  vim.fn.jobstart({ 'xdg-open', url }, { detach = true })
end

-- Asks the person; `request.on_cancel` withdraws the question.
function M.ask(params, reply, request)
  local q = { id = 'ask-' .. M.next_id, message = params.message or 'Lathe asks', reply = reply, state = 'open',
    values = {}, url = params.mode == 'url' and params.url or nil, elicitation_id = params.elicitationId,
    fields = params.mode == 'form' and M.fields(params.requestedSchema) or {} }
  M.next_id = M.next_id + 1
  M.open[#M.open + 1] = q
  if request then request.on_cancel = function() settle(q, 'withdrawn') end end
  M.on_asked(q)
  if params.mode ~= 'form' and params.mode ~= 'url' then
    return settle(q, 'decline', { action = 'decline' }, 'a kind of question this editor cannot show')
  end
  if q.url then
    if q.elicitation_id then M.links[q.elicitation_id] = q end
    return vim.ui.select({ 'Open ' .. q.url, 'Decline', 'Cancel' }, { prompt = q.message }, function(choice)
      if q.state ~= 'open' then return end
      if choice and choice:sub(1, 5) == 'Open ' then
        open_url(q.url)
        return settle(q, 'accept', { action = 'accept' }, 'opened ' .. q.url)
      end
      finish(q, choice == 'Decline' and 'decline' or 'cancel')
    end)
  end
  ask_field(q, 1)
end

-- elicitation/complete: the server says the URL flow of this id ended.
function M.completed(params)
  local q = M.links[params.elicitationId or '']
  if not q or q.state ~= 'accept' then return end
  M.links[params.elicitationId] = nil
  q.summary = (q.summary or '') .. '; the server says it is done'
  M.on_settled(q)
end

-- Stop or a new chat: every open question is cancelled.
function M.cancel_all()
  for _, q in ipairs(vim.list_slice(M.open, 1, #M.open)) do finish(q, 'cancel') end
end

return M
