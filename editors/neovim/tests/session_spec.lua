-- Turn control and session features against the real Lathe binary: cancel
-- during a long command, restart after Lathe dies, modes, context from a range
-- and #buffer, and what the current Lathe does not offer (sessions, models).
local H = dofile(os.getenv('LATHE_TEST_DIR') .. '/helpers.lua')

local seen
local function notes_seen() return seen end

local function capture_notify(fn)
  local original = vim.notify
  seen = {}
  vim.notify = function(msg) seen[#seen + 1] = msg end
  local good, err = pcall(fn)
  vim.notify = original
  assert(good, err)
  return seen
end

it('cancel during a long command ends the turn cancelled', function()
  H.start({
    H.reply({ { H.call('run_shell_command', { command = 'echo started; sleep 120; echo DONE-$((1+1))', description = 'wait' }) } }),
    H.reply({ { H.text('after the command') } }),
  }, { approval_mode = 'yolo' })
  vim.cmd('Lathe run the long command')
  wait_for(function() return H.chat():find('started', 1, true) end, 'live output of the command')
  eq('busy', require('lathe.client').state)
  -- A prompt typed during the turn waits in Lathe's queue, shown as queued; the cancel drops it.
  local chat = require('lathe.chat')
  vim.api.nvim_buf_set_lines(chat.prompt, 0, -1, false, { 'typed meanwhile' })
  require('lathe').send_prompt_buffer()
  wait_for(function() return require('lathe.client').outstanding() == 2 end, 'the queued prompt sent')
  ok(H.chat():find('## You · queued\n\ntyped meanwhile', 1, true), H.chat())
  vim.cmd('LatheCancel')
  eq('cancelled', H.wait_turn('the cancelled turn'))
  wait_for(function() return require('lathe.client').outstanding() == 0 end, 'every prompt answered')
  local text = H.chat()
  ok(not text:find('typed meanwhile', 1, true), 'the queued prompt went with the turn:\n' .. text)
  ok(text:find('Turn ended: cancelled', 1, true), 'the chat says so:\n' .. text)
  ok(not text:find('DONE-2', 1, true), 'the command did not finish')
  local block = chat.transcript.blocks[#chat.transcript.blocks - 1]
  eq('tool', block.kind)
  ok(block.status ~= 'completed' and block.status ~= 'in_progress', 'the tool call is not shown running: ' .. tostring(block.status))
  ok(not text:find('after the command', 1, true), 'the model was not asked again')
  eq('ready', require('lathe.client').state)
end)

it('Lathe is restarted when it dies, and says so', function()
  H.start({ H.reply({ { H.text('first answer') } }) })
  vim.cmd('Lathe first')
  eq('end_turn', H.wait_turn())
  local client = require('lathe.client')
  local pid = client.pid()
  ok(pid, 'Lathe runs')
  local notes = capture_notify(function()
    vim.loop.kill(pid, 'sigkill')
    wait_for(function() return client.state == 'ready' and client.pid() and client.pid() ~= pid end, 'a new Lathe')
  end)
  ok(H.chat():find('Lathe exited', 1, true), 'the chat says Lathe exited:\n' .. H.chat())
  ok(H.chat():find('Restarting', 1, true), 'and that it restarts')
  ok(#notes > 0 and notes[1]:find('Lathe exited', 1, true), 'a notification too: ' .. vim.inspect(notes))
  require('lathe').last_stop = nil
  vim.cmd('Lathe again') -- the new process replays the recording from its start
  eq('end_turn', H.wait_turn())
end)

it(':LatheMode switches to a mode Lathe offers', function()
  H.start({})
  local chosen
  local original = vim.ui.select
  vim.ui.select = function(items, opts, cb)
    chosen = vim.tbl_map(function(m) return m.id end, items)
    for _, m in ipairs(items) do if m.id == 'autoEdit' then return cb(m) end end
  end
  local notes = capture_notify(function()
    vim.cmd('LatheMode')
    wait_for(function() return (require('lathe.client').modes() or {}).currentModeId == 'autoEdit' end, 'the mode change')
    wait_for(function() return #notes_seen() > 0 end, 'the confirmation')
  end)
  eq('Lathe: mode autoEdit', notes[1])
  vim.ui.select = original
  ok(vim.tbl_contains(chosen, 'default') and vim.tbl_contains(chosen, 'plan'), vim.inspect(chosen))
  ok(require('lathe').status_text():find('Auto edit', 1, true), require('lathe').status_text())
  eq({ 'default', 'autoEdit', 'yolo', 'plan' }, vim.fn.getcompletion('LatheMode ', 'cmdline'))
end)

-- Lathe decides what it offers: each case checks the real flow when the
-- binary offers the feature, and the plain refusal when it does not.
local function pick_first(fn)
  local original = vim.ui.select
  local shown
  vim.ui.select = function(items, opts, cb) shown = vim.tbl_map(opts.format_item, items); cb(items[1]) end
  local good, err = pcall(fn)
  vim.ui.select = original
  assert(good, err)
  return shown
end

it('a past session is reopened when Lathe supports it, else reported', function()
  H.start({ H.reply({ { H.text('Noted: the codeword is PELICAN.') } }) })
  vim.cmd('Lathe remember the codeword PELICAN')
  eq('end_turn', H.wait_turn())
  local client = require('lathe.client')
  if not client.can_reopen() then
    local notes = capture_notify(function() vim.cmd('LatheSessions') end)
    ok(notes[1] and notes[1]:find('not supported', 1, true), 'sessions: ' .. vim.inspect(notes))
    return
  end
  local old = client.session.id
  client.stop()
  wait_for(function() return not client.running() end, 'Lathe to stop')
  require('lathe.chat').reset()
  pick_first(function()
    vim.cmd('LatheSessions')
    wait_for(function() return H.chat():find('PELICAN', 1, true) and client.state == 'ready' end, 'the replayed session')
  end)
  eq(old, client.session.id)
  ok(H.chat():find('remember the codeword PELICAN', 1, true), H.chat())
  -- The session open now is not offered as a past one.
  local offered, original = nil, vim.ui.select
  vim.ui.select = function(items) offered = items end
  local notes = capture_notify(function()
    vim.cmd('LatheSessions')
    wait_for(function() return #seen > 0 or offered end, 'the sessions answer')
  end)
  vim.ui.select = original
  eq(nil, offered)
  ok(notes[1]:find('no past sessions here', 1, true), 'sessions: ' .. vim.inspect(notes))
end)

it('the model choice is offered when Lathe offers it, else reported', function()
  H.start({})
  local client = require('lathe.client')
  client.with_session(function() end)
  wait_for(function() return client.state == 'ready' end, 'a session')
  local option = client.model_option()
  if not option then
    local notes = capture_notify(function() vim.cmd('LatheModel') end)
    ok(notes[1] and notes[1]:find('does not offer a model', 1, true), 'model: ' .. vim.inspect(notes))
    eq({}, vim.fn.getcompletion('LatheModel ', 'cmdline'), 'no model completion')
    return
  end
  local first = require('lathe').select_values(option)[1].value
  local shown = pick_first(function()
    vim.cmd('LatheModel')
    wait_for(function() return client.model_option().currentValue == first end, 'the model change')
  end)
  ok(#shown > 0, 'models listed')
end)

it('/ commands appear only when Lathe sends them', function()
  H.start({ H.reply({ { H.text('hi') } }) })
  vim.cmd('Lathe hi')
  eq('end_turn', H.wait_turn())
  local commands = require('lathe.client').session.commands
  eq(#commands, #require('lathe.complete').items('/', true), 'completion mirrors available_commands_update')
  ok(#commands > 0 or not LathePromptStatus():find('/ commands', 1, true), 'no hint of commands when none were sent')
end)

it("the workspace's custom commands and skills complete after /, and a command runs", function()
  local dir = H.start({ H.reply({ { H.text('Committed message written.') } }) })
  H.write(dir .. '/.gemini/commands/git/msg.toml', 'description = "Write a commit message"\nprompt = "Write a commit message for {{args}}."\n')
  H.write(dir .. '/.gemini/skills/review/SKILL.md', '---\nname: review\ndescription: Reviews the change\n---\nReview it.\n')
  -- The workspace's skill waits for the workspace's consent, asked at the first turn.
  local original, asked = vim.ui.select, nil
  vim.ui.select = function(items, _, cb)
    for _, o in ipairs(items) do
      if o.optionId == 'workspace_allow_once' then asked = o end
    end
    cb(asked)
  end
  local sent = H.sent_by('Lathe /git:msg the parser fix')
  vim.ui.select = original
  ok(asked, 'the workspace consent was asked')
  eq('/git:msg the parser fix', sent[1].text)
  local complete = require('lathe.complete')
  local git = complete.items('/git', true)
  eq(1, #git)
  eq('/git:msg ', git[1].word)
  eq('Write a commit message', git[1].menu)
  local review = complete.items('/rev', true)
  eq(1, #review)
  eq('/review ', review[1].word)
  eq('Reviews the change', review[1].menu)
  ok(H.chat():find('Committed message written.', 1, true), 'the command went to the model:\n' .. H.chat())
end)

it('a range and #buffer references attach unsaved buffer text', function()
  local dir = H.start({ H.reply({ { H.text('I see the code.') } }) })
  H.write(dir .. '/code.lua', 'local a = 1\nlocal b = 2\nlocal c = 3\n')
  H.write(dir .. '/notes.md', 'disk notes\n')
  vim.cmd('edit notes.md')
  vim.api.nvim_buf_set_lines(0, 0, -1, false, { 'unsaved notes' })
  vim.cmd('edit code.lua')
  local sent = H.sent_by('2,3Lathe explain this with #notes.md')
  eq('text', sent[1].type)
  eq('explain this with #notes.md', sent[1].text)
  eq('resource', sent[2].type)
  eq('local b = 2\nlocal c = 3\n', sent[2].resource.text, 'the range')
  ok(sent[2].resource.uri:find('code.lua#L2-L3', 1, true), sent[2].resource.uri)
  eq('unsaved notes\n', sent[3].resource.text, '#notes.md from the buffer')
  ok(H.chat():find('`@code.lua:2-3`', 1, true), 'attachments listed in the chat:\n' .. H.chat())
end)

it('cancel while an edit is under review answers it cancelled and leaves the buffer', function()
  local dir = H.start({})
  local file = dir .. '/hello.txt'
  H.write(file, 'hello world\n')
  H.replay_file(dir, { H.reply({ { H.call('replace', { file_path = file, instruction = 'x', old_string = 'hello world', new_string = 'never' }) } }) })
  vim.cmd('edit ' .. file)
  local b = vim.api.nvim_get_current_buf()
  local review = require('lathe.review')
  vim.cmd('Lathe edit it')
  wait_for(function() return #vim.api.nvim_buf_get_extmarks(b, review.ns, 0, -1, {}) > 0 end, 'the inline review')
  vim.cmd('LatheCancel')
  eq('cancelled', H.wait_turn(), H.chat())
  eq({ 'hello world' }, H.lines(b))
  eq('hello world\n', H.read(file))
  eq(0, #vim.api.nvim_buf_get_extmarks(b, review.ns, 0, -1, {}), 'review cleared')
  eq(0, #require('lathe.permission').open, 'no open question')
end)

it('the chat opens as floating windows when layout is float', function()
  H.start({ H.reply({ { H.text('floating answer') } }) }, { layout = 'float' })
  vim.cmd('Lathe hi')
  eq('end_turn', H.wait_turn())
  local chat = require('lathe.chat')
  eq('editor', vim.api.nvim_win_get_config(chat.win).relative)
  eq('editor', vim.api.nvim_win_get_config(chat.prompt_win).relative)
  ok(H.chat():find('floating answer', 1, true), H.chat())
  vim.api.nvim_set_current_win(chat.win)
  H.press('q')
  ok(not chat.is_open(), 'q closes the chat')
  require('lathe.config').set({})
end)

it('<C-s> in the prompt sends it from insert mode, Neovim 0.11\'s own <C-S> notwithstanding', function()
  H.start({ H.reply({ { H.text('Sent with C-s.') } }) })
  vim.cmd('Lathe')
  local chat = require('lathe.chat')
  local map = vim.api.nvim_buf_call(chat.prompt, function() return vim.fn.maparg('<C-S>', 'i', false, true) end)
  eq(1, map.buffer, 'a buffer-local mapping in the prompt')
  eq('Lathe: send the prompt', map.desc)
  H.press('ityped then C-s<C-s>')
  eq('end_turn', H.wait_turn())
  ok(H.chat():find('typed then C-s', 1, true), H.chat())
  ok(H.chat():find('Sent with C-s.', 1, true), H.chat())
  eq({ '' }, H.lines(chat.prompt), 'the prompt is cleared')
  eq('n', vim.api.nvim_get_mode().mode, 'back in normal mode')
end)

it('a global mapping of the key is still left alone in the person\'s files', function()
  local dir = H.start({})
  vim.keymap.set('n', '<LocalLeader>a', '<Nop>', { desc = 'mine' })
  H.write(dir .. '/f.txt', 'x\n')
  vim.cmd('edit ' .. dir .. '/f.txt')
  eq(nil, require('lathe.keymaps').set(vim.api.nvim_get_current_buf(), 'n', 'accept', function() end, 'accept'))
  vim.keymap.del('n', '<LocalLeader>a')
end)

it('New closes the open session; the past chat is reopened with its history and goes on', function()
  H.start({ H.reply({ { H.text('Noted: PELICAN.') } }), H.reply({ { H.text('A fresh start.') } }), H.reply({ { H.text('Still PELICAN.') } }) })
  vim.cmd('Lathe remember the codeword PELICAN')
  eq('end_turn', H.wait_turn())
  local client = require('lathe.client')
  local first = client.session.id
  local sent = {}
  local request = client.peer.request
  client.peer.request = function(self, method, params, cb)
    sent[#sent + 1] = method .. ' ' .. tostring(params.sessionId)
    return request(self, method, params, cb)
  end
  vim.cmd('LatheNew')
  wait_for(function() return client.session and client.session.id ~= first and client.state == 'ready' end, 'the new session')
  ok(client.can_close(), 'this Lathe closes sessions')
  ok(vim.tbl_contains(sent, 'session/close ' .. first), vim.inspect(sent))
  ok(not H.chat():find('PELICAN', 1, true), 'the chat starts over:\n' .. H.chat())
  require('lathe').last_stop = nil
  vim.cmd('Lathe something else')
  eq('end_turn', H.wait_turn())
  ok(client.can_reopen(), 'this Lathe lists and loads sessions')
  pick_first(function()
    vim.cmd('LatheSessions')
    wait_for(function() return H.chat():find('Noted: PELICAN.', 1, true) and client.state == 'ready' end, 'the replayed session')
  end)
  eq(first, client.session.id)
  ok(not H.chat():find('A fresh start.', 1, true), 'only the reopened chat is shown:\n' .. H.chat())
  require('lathe').last_stop = nil
  vim.cmd('Lathe and now?')
  eq('end_turn', H.wait_turn())
  ok(H.chat():find('Still PELICAN.', 1, true), H.chat())
  client.peer.request = nil -- back to the metatable's
end)

it('files still under review are listed again after :LatheNew and after reopening a session', function()
  local dir = H.start({}, { approval_mode = 'yolo' })
  H.write(dir .. '/r.txt', 'red\n')
  H.replay_file(dir, {
    H.reply({ { H.call('replace', { file_path = dir .. '/r.txt', instruction = 'x', old_string = 'red', new_string = 'RED' }) } }),
    H.reply({ { H.text('Shouted red.') } }),
  })
  vim.cmd('Lathe shout red')
  eq('end_turn', H.wait_turn())
  local first = require('lathe.client').session.id
  ok(H.chat():find('### Changed files\n- `r.txt` +1 -1', 1, true), H.chat())
  local client = require('lathe.client')
  vim.cmd('LatheNew')
  wait_for(function() return client.session and client.session.id ~= first and client.state == 'ready'
    and not H.chat():find('Shouted red.', 1, true) end, 'the new session, its chat starting over')
  ok(H.chat():find('### Changed files\n- `r.txt` +1 -1', 1, true), 'still under review:\n' .. H.chat())
  pick_first(function()
    vim.cmd('LatheSessions')
    wait_for(function() return H.chat():find('Shouted red.', 1, true) and H.chat():find('### Changed files', 1, true) end,
      'the replayed session and the files under review')
  end)
  local text = H.chat()
  local at = text:find('### Changed files\n- `r.txt` +1 -1', 1, true)
  ok(at and at > text:find('Shouted red.', 1, true), 'listed after the replayed chat:\n' .. text)
end)

it('a hook that blocks a call shows on its card, from the real Lathe', function()
  local home = vim.fn.resolve(vim.fn.tempname())
  H.write(home .. '/.gemini/settings.json', vim.json.encode({ hooks = { BeforeTool = { { matcher = 'write_file',
    hooks = { { type = 'command', name = 'guard', command = 'cat >/dev/null; echo \'{"decision":"deny","reason":"not in this folder"}\'' } } } } } }))
  local dir = H.start({
    H.reply({ { H.call('write_file', { file_path = 'kept-out.txt', content = 'x\n' }) } }),
    H.reply({ { H.text('Blocked, as the hook said.') } }),
  }, { approval_mode = 'yolo', env = { GEMINI_CLI_HOME = home } })
  vim.cmd('Lathe write it')
  eq('end_turn', H.wait_turn())
  local text = H.chat()
  ok(text:find('> **Hook guard** (BeforeTool) blocked: not in this folder', 1, true), 'the card shows the hook:\n' .. text)
  ok(text:find('Blocked, as the hook said.', 1, true), text)
  eq(nil, H.read(dir .. '/kept-out.txt'), 'the write did not happen')
end)
