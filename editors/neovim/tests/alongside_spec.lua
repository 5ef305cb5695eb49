-- Working alongside the agent, against the real Lathe binary with a recorded
-- model: prompts queued behind a running turn (and dropped with it), a
-- command's output streamed through the terminal-output extension, the plan
-- exit_plan_mode asks about, deleting a past session, steering a running turn.
local H = dofile(os.getenv('LATHE_TEST_DIR') .. '/helpers.lua')

-- Holds Lathe's questions asked through vim.ui.select: each one's items, prompt
-- and its callback, answered later by answer(optionId). restore() puts vim.ui.select back.
local function holding()
  local held, original = {}, vim.ui.select
  vim.ui.select = function(items, opts, cb) held[#held + 1] = { items = items, opts = opts, cb = cb } end
  local function answer(q, id)
    for _, o in ipairs(q.items) do if o.optionId == id then return q.cb(o) end end
    error('no option ' .. id .. ' in ' .. vim.inspect(q.items))
  end
  return held, answer, function() vim.ui.select = original end
end

local function count(text, what)
  local n, at = 0, 1
  while true do
    local s = text:find(what, at, true)
    if not s then return n end
    n, at = n + 1, s + #what
  end
end

local function type_and_send(text)
  local chat = require('lathe.chat')
  vim.api.nvim_buf_set_lines(chat.prompt, 0, -1, false, { text })
  require('lathe').send_prompt_buffer()
end

it('a prompt sent while a turn runs shows as queued, then as the message when it starts, once', function()
  H.start({
    H.reply({ { H.call('run_shell_command', { command = 'touch a.txt', description = 'make a' }) } }),
    H.reply({ { H.text('First done.') } }),
    H.reply({ { H.text('Second done.') } }),
  })
  local held, answer, restore = holding()
  vim.cmd('Lathe make a')
  wait_for(function() return #held == 1 end, 'the shell question')
  local client = require('lathe.client')
  eq('busy', client.state)
  type_and_send('then say hi')
  local chat = require('lathe.chat')
  eq({ '' }, H.lines(chat.prompt), 'the prompt was taken, not kept back')
  wait_for(function() return client.outstanding() == 2 end, 'the second prompt sent')
  local text = H.chat()
  ok(text:find('## You · queued\n\nthen say hi\n_Sent when the running turn ends; a cancel drops it_', 1, true),
    'pinned as queued:\n' .. text)
  eq(1, count(text, '## You · queued'), 'once:\n' .. text)
  answer(held[1], 'allow_once')
  wait_for(function() return H.chat():find('Second done.', 1, true) and client.state == 'ready' end, 'both turns')
  restore()
  text = H.chat()
  eq(1, count(text, 'then say hi'), "the queued prompt once, Lathe's echo not repeated:\n" .. text)
  eq(0, count(text, 'queued'), 'no longer pending:\n' .. text)
  local first, mine, second = text:find('First done.', 1, true), text:find('## You\n\nthen say hi', 1, true),
    text:find('Second done.', 1, true)
  ok(first and mine and second and first < mine and mine < second, 'in the order the turns ran:\n' .. text)
  eq(0, client.outstanding())
end)

it('cancel drops the queued prompts with the turn; the next prompt runs', function()
  H.start({
    H.reply({ { H.call('run_shell_command', { command = 'touch b.txt', description = 'make b' }) } }),
    H.reply({ { H.text('After the cancel.') } }),
  })
  local held, _, restore = holding()
  vim.cmd('Lathe make b')
  wait_for(function() return #held == 1 end, 'the shell question')
  type_and_send('queued one')
  type_and_send('queued two')
  local client = require('lathe.client')
  wait_for(function() return client.outstanding() == 3 end, 'both queued prompts sent')
  eq(2, count(H.chat(), '## You · queued'), H.chat())
  vim.cmd('LatheCancel')
  eq('cancelled', H.wait_turn('the cancelled turn'))
  wait_for(function() return client.outstanding() == 0 and client.state == 'ready' end, 'every prompt answered')
  local text = H.chat()
  eq(0, count(text, 'queued'), 'the pending prompts went:\n' .. text)
  ok(text:find('Turn ended: cancelled', 1, true), text)
  require('lathe').last_stop = nil
  vim.cmd('Lathe again')
  eq('end_turn', H.wait_turn())
  restore()
  ok(H.chat():find('After the cancel.', 1, true), 'the queued ones never reached the model:\n' .. H.chat())
end)

it("a command's output streams into its block while it runs, with where it runs and its exit code", function()
  local dir = H.start({
    H.reply({ { H.call('run_shell_command', { command = "printf 'hello\\n'; read line < fifo; printf 'world\\n'; exit 3",
      description = 'talk' }) } }),
    H.reply({ { H.text('It said hello.') } }),
  }, { approval_mode = 'yolo' })
  vim.fn.system({ 'mkfifo', dir .. '/fifo' })
  vim.cmd('Lathe run it')
  local chat = require('lathe.chat')
  -- Live: the first line is shown while the command waits on the fifo.
  wait_for(function() return H.chat():find('```\nhello\n```\n_running…_', 1, true) end, 'the live output:\n' .. H.chat())
  eq('busy', require('lathe.client').state)
  local block = chat.transcript.blocks[#chat.transcript.blocks]
  eq('tool', block.kind)
  eq(dir, block.terminal.cwd)
  local f = assert(io.open(dir .. '/fifo', 'w'))
  f:write('go\n')
  f:close()
  eq('end_turn', H.wait_turn())
  local text = H.chat()
  ok(text:find('_in `' .. dir .. '`_\n```\nhello\nworld\n```\n_exit code 3_', 1, true), 'the whole output, how it ended:\n' .. text)
  ok(text:find('It said hello.', 1, true), text)
end)

it('exit_plan_mode shows the plan as Markdown with its options; the mode picked shows in the status line', function()
  H.start({
    H.reply({ { H.call('write_file', { file_path = 'feature-x.md', content = '# Plan\n\n1. Change **src.txt**\n2. Test it\n' }) } }),
    H.reply({ { H.call('exit_plan_mode', { plan_filename = 'feature-x.md' }) } }),
    H.reply({ { H.text('Carrying it out.') } }),
  }, { approval_mode = 'plan' })
  local held, answer, restore = holding()
  local client = require('lathe.client')
  client.with_session(function() end)
  wait_for(function() return client.state == 'ready' and (client.modes() or {}).currentModeId == 'plan' end, 'plan mode')
  ok(require('lathe').status_text():find('Plan', 1, true), require('lathe').status_text())
  vim.cmd('Lathe plan it')
  wait_for(function() return #held == 1 end, 'the plan question')
  local q = held[1]
  eq({ 'autoEdit', 'default', 'reject_once' }, vim.tbl_map(function(o) return o.optionId end, q.items))
  eq({ 'Yes, and allow edits', 'Yes, and ask before each edit', 'No, keep planning' }, vim.tbl_map(q.opts.format_item, q.items))
  local text = H.chat()
  ok(text:find('> # Plan\n>\n> 1. Change **src.txt**\n> 2. Test it\n>\n> The plan is ', 1, true), 'the plan, readable, while asked:\n' .. text)
  answer(q, 'autoEdit')
  eq('end_turn', H.wait_turn())
  restore()
  eq('autoEdit', client.modes().currentModeId)
  ok(require('lathe').status_text():find('Auto edit', 1, true), 'the mode indicator follows: ' .. require('lathe').status_text())
  text = H.chat()
  ok(text:find('> 1. Change **src.txt**', 1, true), 'the plan stays shown:\n' .. text)
  ok(text:find('Plan approved (autoEdit mode)', 1, true), text)
  ok(text:find('Carrying it out.', 1, true), text)
end)

it('a past session is deleted after a confirmation, and the list forgets it', function()
  H.start({ H.reply({ { H.text('Noted: ALBATROSS.') } }), H.reply({ { H.text('Kept: HERON.') } }) })
  vim.cmd('Lathe remember ALBATROSS')
  eq('end_turn', H.wait_turn())
  local client = require('lathe.client')
  ok(client.can_delete(), 'this Lathe deletes sessions')
  local doomed = client.session.id
  vim.cmd('LatheNew')
  wait_for(function() return client.session and client.session.id ~= doomed and client.state == 'ready' end, 'a new session')
  require('lathe').last_stop = nil
  vim.cmd('Lathe remember HERON')
  eq('end_turn', H.wait_turn())
  local kept = client.session.id
  local original, asked = vim.ui.select, {}
  local function answering(confirm)
    vim.ui.select = function(items, opts, cb)
      asked[#asked + 1] = { prompt = opts.prompt, items = vim.tbl_map(opts.format_item or tostring, items) }
      if opts.prompt == 'Delete session' then
        for _, s in ipairs(items) do if s.sessionId == doomed then return cb(s) end end
        return cb(nil)
      end
      cb(opts.prompt:find('for good', 1, true) and confirm or nil)
    end
  end
  local sent = {}
  local request = client.peer.request
  client.peer.request = function(self, method, params, cb)
    sent[#sent + 1] = method
    return request(self, method, params, cb)
  end
  -- Keep: nothing is deleted.
  answering('Keep')
  vim.cmd('LatheDeleteSession')
  wait_for(function() return #asked == 2 end, 'the confirmation')
  ok(asked[2].prompt:find('for good', 1, true), vim.inspect(asked))
  eq({ 'Delete', 'Keep' }, asked[2].items)
  ok(not vim.tbl_contains(sent, 'session/delete'), vim.inspect(sent))
  -- Delete: gone from the list.
  asked = {}
  answering('Delete')
  vim.cmd('LatheDeleteSession')
  wait_for(function() return vim.tbl_contains(sent, 'session/delete') end, 'session/delete')
  wait_for(function() return #asked == 2 end, 'the confirmation')
  local listed
  wait_for(function() return sent[#sent] == 'session/delete' and next(client.peer.pending) == nil end, 'its answer')
  client.list_sessions(function(_, sessions) listed = vim.tbl_map(function(s) return s.sessionId end, sessions) end)
  wait_for(function() return listed end, 'the list')
  ok(not vim.tbl_contains(listed, doomed), 'deleted: ' .. vim.inspect(listed))
  ok(vim.tbl_contains(listed, kept), 'the open session is still listed: ' .. vim.inspect(listed))
  -- :LatheSessions no longer offers it: the open one aside, nothing is left.
  asked = {}
  local notes, notify = {}, vim.notify
  vim.notify = function(msg) notes[#notes + 1] = msg end
  vim.cmd('LatheSessions')
  wait_for(function() return #notes > 0 end, 'the sessions answer')
  vim.notify, vim.ui.select = notify, original
  client.peer.request = nil -- back to the metatable's
  eq(0, #asked, 'no picker')
  ok(notes[1]:find('no past sessions here', 1, true), vim.inspect(notes))
  eq(kept, client.session.id, 'the open session is untouched')
end)

it('text added to a running turn is shown as yours; idle, it is sent as a prompt', function()
  H.start({
    H.reply({ { H.call('run_shell_command', { command = 'touch c.txt', description = 'make c' }) } }),
    H.reply({ { H.text('Adjusted: tabs.') } }),
    H.reply({ { H.text('A turn of its own.') } }),
  })
  local held, answer, restore = holding()
  vim.cmd('Lathe make c')
  wait_for(function() return #held == 1 end, 'the shell question')
  local client = require('lathe.client')
  ok(client.can_steer(), 'this Lathe takes text into a running turn')
  vim.cmd('LatheSteer use tabs, not spaces')
  wait_for(function() return H.chat():find('## You (added to the running turn)\n\nuse tabs, not spaces', 1, true) end,
    'the added text:\n' .. H.chat())
  eq(1, client.outstanding(), 'not a prompt of its own')
  answer(held[1], 'allow_once')
  eq('end_turn', H.wait_turn())
  ok(H.chat():find('Adjusted: tabs.', 1, true), H.chat())
  -- With nothing running: a prompt, from the prompt buffer.
  require('lathe').last_stop = nil
  vim.api.nvim_buf_set_lines(require('lathe.chat').prompt, 0, -1, false, { 'one more thing' })
  vim.cmd('LatheSteer')
  eq('end_turn', H.wait_turn())
  restore()
  local text = H.chat()
  ok(text:find('## You\n\none more thing', 1, true), text)
  ok(text:find('A turn of its own.', 1, true), text)
  eq(1, count(text, 'one more thing'), text)
end)
