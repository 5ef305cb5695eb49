-- Sub-agents against the real Lathe binary: a child's work and its question are
-- quoted under the call that started it, the question is answered there, and
-- :LatheStopAgent stops that child alone while the turn goes on.
local H = dofile(os.getenv('LATHE_TEST_DIR') .. '/helpers.lua')

it('a sub-agent works under its call, its question is answered, and :LatheStopAgent stops it alone', function()
  local dir = H.start({
    H.reply({ { H.call('invoke_agent', { agent_name = 'generalist', prompt = 'Run the slow check' }) } }),
    H.reply({ { H.call('run_shell_command', { command = 'touch by-subagent.txt && sleep 31' }) } }),
    H.reply({ { H.text('The sub-agent was stopped.') } }),
  })
  local asked
  local original = vim.ui.select
  vim.ui.select = function(items, opts, cb)
    asked = opts.prompt
    for _, o in ipairs(items) do if o.kind == 'allow_once' then return cb(o) end end
  end
  vim.cmd('Lathe run the slow check through a sub-agent')
  local chat = require('lathe.chat')
  local function child() return chat.transcript:stoppable()[1] end
  wait_for(function()
    local c = child()
    local shell = c and c.transcript:tool('call_1')
    return shell and shell.status == 'in_progress'
  end, "the child's command running under its call")
  vim.ui.select = original
  ok(asked and asked:find('[Generalist Agent]', 1, true), 'the question names the sub-agent: ' .. tostring(asked))
  local text = H.chat()
  ok(text:find('↳ **Generalist Agent** · working', 1, true), 'the child is quoted under its call:\n' .. text)
  ok(text:find('> **Task**\n>\n> Run the slow check', 1, true), text)
  ok(text:find('Shell: touch by-subagent.txt && sleep 31 · in progress', 1, true), text)
  local c = child()
  eq(require('lathe.client').session.id .. '.call_1', c.id)
  wait_for(function() return vim.loop.fs_stat(dir .. '/by-subagent.txt') end, "the child's command to have started")
  vim.cmd('LatheStopAgent')
  eq('end_turn', H.wait_turn('the turn, which goes on without the child'))
  eq('idle', c.state)
  eq('cancelled', c.stop_reason)
  text = H.chat()
  ok(text:find('· stopped', 1, true), text)
  ok(text:find('The sub-agent was stopped.', 1, true), 'the parent went on:\n' .. text)
end)
