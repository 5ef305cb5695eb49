-- Logging in when Lathe answers auth-required: one of the logins it offers
-- (its ACP authMethods) through vim.ui.select, then the key typed unseen.
local M = {}

-- The key without echoing it: inputsecret() shows '*' for each character typed.
-- An empty answer (or <Esc>) is a cancel.
function M.read_key(name)
  local ok, key = pcall(vim.fn.inputsecret, name .. ' key (not shown): ')
  if not ok then return nil end -- <C-c>
  key = vim.trim(key or '')
  return key ~= '' and key or nil
end

-- methods: Lathe's authMethods; done({ methodId, key }) or done(nil) on a cancel.
function M.ask(methods, done)
  vim.ui.select(methods, {
    prompt = 'Lathe needs a login to reach the model',
    format_item = function(m)
      local d = m.description
      return (type(d) == 'string' and d ~= '') and (m.name .. ' — ' .. d) or m.name
    end,
  }, function(method)
    if not method then return done(nil) end
    local key = M.read_key(method.name)
    vim.cmd('redraw') -- clears the prompt line
    done(key and { methodId = method.id, key = key } or nil)
  end)
end

return M
