-- Logging in when Lathe answers auth-required: one of the logins it offers
-- (its ACP authMethods) through vim.ui.select, then what that login needs: a
-- key typed unseen (Vertex AI's may be left empty: the project and credentials
-- of Lathe's environment), a gateway's base URL and headers, or nothing (Log
-- in with Google: Lathe sends its page as a URL question, lathe.question).
local M = {}

-- What a login asks: 'key', 'optional_key', 'gateway' or 'browser'.
function M.asks(method)
  local meta = type(method._meta) == 'table' and method._meta or {}
  if meta.gateway ~= nil and meta.gateway ~= vim.NIL then return 'gateway' end
  if meta['api-key'] ~= nil and meta['api-key'] ~= vim.NIL then return 'key' end
  if method.id == 'vertex-ai' then return 'optional_key' end
  if method.id == 'oauth-personal' then return 'browser' end
  return 'key'
end

-- A gateway's headers as typed: "Name: value" separated by ';' (empty: none);
-- nil and why when they are not that.
function M.parse_headers(text)
  local headers = {}
  for entry in (text or ''):gmatch('[^;\n]+') do
    entry = vim.trim(entry)
    if entry ~= '' then
      local name, value = entry:match('^([%w!#$%%&\'*+.^_`|~-]+)%s*:%s*(.-)%s*$')
      if not name then return nil, ('"%s" is not a header: write Name: value'):format(entry) end
      headers[name] = value
    end
  end
  return headers
end

-- authenticate's params for what the person gave, as Gemini CLI reads them.
function M.params(choice)
  local meta = {}
  if choice.key then meta['api-key'] = choice.key end
  if choice.gateway then meta.gateway = choice.gateway end
  return next(meta) and { methodId = choice.methodId, _meta = meta } or { methodId = choice.methodId }
end

-- Typed without echoing: inputsecret() shows '*' for each character. nil on <C-c>.
local function secret(prompt)
  local ok, text = pcall(vim.fn.inputsecret, prompt)
  return ok and vim.trim(text or '') or nil
end

-- The key without echoing it. An empty answer (or <Esc>) is a cancel.
function M.read_key(name)
  local key = secret(name .. ' key (not shown): ')
  return key ~= '' and key or nil
end

local function gateway(name)
  local ok, url = pcall(vim.fn.input, name .. ': base URL (https://...): ')
  url = ok and vim.trim(url or '') or ''
  if not url:match('^https?://%S+$') then return nil end
  local typed = secret('Its headers, Name: value; ... (empty: none; not shown): ')
  if not typed then return nil end
  local headers, why = M.parse_headers(typed)
  if not headers then
    vim.notify('lathe: ' .. why, vim.log.levels.ERROR)
    return nil
  end
  return { baseUrl = url, headers = next(headers) and headers or vim.empty_dict() }
end

-- methods: Lathe's authMethods; done({ methodId, key?, gateway? }) or done(nil) on a cancel.
function M.ask(methods, done)
  vim.ui.select(methods, {
    prompt = 'Lathe needs a login to reach the model',
    format_item = function(m)
      local d = m.description
      return (type(d) == 'string' and d ~= '') and (m.name .. ' — ' .. d) or m.name
    end,
  }, function(method)
    if not method then return done(nil) end
    local asks, choice = M.asks(method), { methodId = method.id }
    if asks == 'key' then
      choice.key = M.read_key(method.name)
      if not choice.key then choice = nil end
    elseif asks == 'optional_key' then
      local key = secret(method.name .. ': express-mode key, or empty for the environment\'s project (not shown): ')
      if key == nil then choice = nil elseif key ~= '' then choice.key = key end
    elseif asks == 'gateway' then
      choice.gateway = gateway(method.name)
      if not choice.gateway then choice = nil end
    end
    vim.cmd('redraw') -- clears the prompt line
    done(choice)
  end)
end

return M
