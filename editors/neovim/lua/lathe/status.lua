-- The chat's status lines: agent, mode, model, effort, context usage and cost, turn state;
-- and the prompt's key hints.
local client = require('lathe.client')
local render = require('lathe.render')
local M = {}

-- Status line of the chat window: agent, mode, model, effort, usage, state.
function M.text()
  local parts = { 'Lathe' }
  local s = client.session
  if s and s.modes and s.modes.currentModeId then
    local name = s.modes.currentModeId
    for _, m in ipairs(s.modes.availableModes or {}) do if m.id == name then name = m.name end end
    parts[#parts + 1] = name
  end
  local model = client.model_option()
  if model then parts[#parts + 1] = tostring(model.currentValue) end
  local effort = client.effort_option()
  if effort then parts[#parts + 1] = 'effort ' .. tostring(effort.currentValue) end
  local usage = s and render.usage(s.usage)
  if usage then parts[#parts + 1] = usage end
  local state = ({ busy = 'working…', starting = 'starting…', failed = 'stopped', stopped = 'not running' })[client.state]
  if state then parts[#parts + 1] = state end
  return ' ' .. table.concat(parts, ' · ')
end

_G.LatheStatus = function() return M.text() end
_G.LathePromptStatus = function()
  local keys = {}
  local km = require('lathe.keymaps')
  if km.label('send') then keys[#keys + 1] = km.label('send') .. ' send' end
  if km.label('cancel') then keys[#keys + 1] = km.label('cancel') .. ' cancel' end
  if #((client.session or {}).commands or {}) > 0 then keys[#keys + 1] = '/ commands' end
  keys[#keys + 1] = '#buffer attaches'
  return ' Prompt · ' .. table.concat(keys, ' · ')
end

return M
