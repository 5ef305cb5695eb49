-- Edits and permissions against the real Lathe binary (default mode): inline
-- review in a modified buffer, accept + undo, reject, a shell question through
-- vim.ui.select, all edits allowed from the options menu, new and unloaded files.
local H = dofile(os.getenv('LATHE_TEST_DIR') .. '/helpers.lua')

local function replace(path, from, to)
  return H.call('replace', { file_path = path, instruction = 'Change the greeting', old_string = from, new_string = to })
end

-- Opens file and types an unsaved change on line 2, as a person would.
local function open_modified(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local b = vim.api.nvim_get_current_buf()
  H.press('2GA UNSAVED<Esc>')
  eq(true, vim.bo[b].modified, 'the buffer is modified')
  return b
end

local function review_marks(b)
  return vim.api.nvim_buf_get_extmarks(b, require('lathe.review').ns, 0, -1, { details = true })
end

local function virt_text_of(marks)
  local out = {}
  for _, m in ipairs(marks) do
    for _, vl in ipairs(m[4].virt_lines or {}) do out[#out + 1] = vim.trim(vl[1][1]) end
  end
  return out
end

it('an edit to a modified buffer is shown inline, accepted, and undone by one u', function()
  local dir = H.start({
    H.reply({ { H.text('Changing the greeting.') }, { replace(vim.fn.getcwd() .. '/x', 'x', 'y') } }),
  })
  local file = dir .. '/hello.txt'
  H.write(file, 'hello world\nsecond line\n')
  -- The replay names the file by absolute path, so rewrite it now that dir is known.
  H.replay_file(dir, { H.reply({ { H.text('Changing the greeting.') }, { replace(file, 'hello world', 'hello lathe') } }),
    H.reply({ { H.text('Done.') } }) })
  local b = open_modified(file)
  local file_win = vim.api.nvim_get_current_win()
  vim.cmd('Lathe change the greeting')
  wait_for(function() return #review_marks(b) > 0 end, 'the inline review')
  local marks = review_marks(b)
  eq({ 'hello lathe' }, virt_text_of(marks), 'added line as virtual line')
  local p = require('lathe.permission').open[1]
  eq({ removed = { 0 }, added = { 'hello lathe' } }, p.drawn, 'what the review drew')
  if vim.fn.has('nvim-0.10') == 1 then -- 0.7 does not report line_hl_group in extmark details
    local deleted = {}
    for _, m in ipairs(marks) do if m[4].line_hl_group then deleted[#deleted + 1] = m[2] end end
    eq({ 0 }, deleted, 'removed line highlighted in place')
  end
  eq({ 'hello world', 'second line UNSAVED' }, H.lines(b), 'the buffer is untouched while reviewing')
  ok(H.chat():find('Review the edit', 1, true), 'the chat says an answer is awaited')
  ok(H.chat():find('-hello world\n+hello lathe', 1, true), 'the chat shows the proposed diff:\n' .. H.chat())
  vim.api.nvim_set_current_win(file_win)
  H.press('\\a')
  eq('end_turn', H.wait_turn())
  eq({ 'hello lathe', 'second line UNSAVED' }, H.lines(b), 'unsaved text plus the edit')
  eq('hello lathe\nsecond line UNSAVED\n', H.read(file), 'saved so commands see it')
  eq(0, #review_marks(b), 'review marks cleared')
  local applied = function() return vim.api.nvim_buf_get_extmarks(b, require('lathe.review').applied_ns, 0, -1, {}) end
  eq(1, #applied(), 'the written line is highlighted')
  eq(0, applied()[1][2], 'on row 0')
  vim.api.nvim_set_current_win(file_win)
  vim.cmd('silent normal u')
  eq({ 'hello world', 'second line UNSAVED' }, H.lines(b), 'one u undoes the edit only')
  vim.cmd('doautocmd <nomodeline> TextChanged') -- headless Neovim does not fire it by itself
  eq(0, #applied(), 'the highlight goes with the next change')
end)

it('a rejected edit leaves the buffer untouched', function()
  local dir = H.start({})
  local file = dir .. '/hello.txt'
  H.write(file, 'hello world\nsecond line\n')
  H.replay_file(dir, { H.reply({ { replace(file, 'hello world', 'goodbye') } }), H.reply({ { H.text('Left it alone.') } }) })
  local b = open_modified(file)
  local file_win = vim.api.nvim_get_current_win()
  local seq = vim.fn.undotree().seq_cur
  local tick = vim.api.nvim_buf_get_changedtick(b)
  vim.cmd('Lathe change it')
  wait_for(function() return #review_marks(b) > 0 end, 'the inline review')
  vim.api.nvim_set_current_win(file_win)
  H.press('\\r')
  eq('end_turn', H.wait_turn())
  eq({ 'hello world', 'second line UNSAVED' }, H.lines(b), 'buffer text')
  eq(tick, vim.api.nvim_buf_get_changedtick(b), 'no change at all')
  eq(seq, vim.fn.undotree().seq_cur, 'undo state')
  eq(true, vim.bo[b].modified, 'still modified')
  eq('hello world\nsecond line\n', H.read(file), 'disk untouched')
  eq(0, #review_marks(b), 'review marks cleared')
  ok(H.chat():find('Left it alone.', 1, true), 'the turn went on')
end)

it('an edit\'s options offer all edits for the session; chosen, the next edit to another file is not asked', function()
  local dir = H.start({})
  local file = dir .. '/hello.txt'
  H.write(file, 'hello world\n')
  H.replay_file(dir, {
    H.reply({ { replace(file, 'hello world', 'hello all') } }),
    H.reply({ { H.call('write_file', { file_path = dir .. '/sub/other.txt', content = 'other\n' }) } }),
    H.reply({ { H.text('Both changed.') } }),
  })
  vim.cmd('edit ' .. file)
  local b = vim.api.nvim_get_current_buf()
  local file_win = vim.api.nvim_get_current_win()
  local asked, names = 0, {}
  local original = vim.ui.select
  vim.ui.select = function(items, opts, cb)
    asked = asked + 1
    names = vim.tbl_map(function(o) return opts.format_item(o) end, items)
    for _, o in ipairs(items) do if o.optionId == 'allow_always_edits' then return cb(o) end end
    cb(nil)
  end
  vim.cmd('Lathe change both')
  wait_for(function() return #review_marks(b) > 0 end, 'the inline review')
  vim.api.nvim_set_current_win(file_win)
  H.press('\\o')
  local stop = H.wait_turn()
  vim.ui.select = original
  eq('end_turn', stop)
  eq(1, asked, 'one question for two edits')
  ok(vim.tbl_contains(names, 'Allow all edits for this session'), vim.inspect(names))
  eq('hello all\n', H.read(file))
  eq('other\n', H.read(dir .. '/sub/other.txt'), 'the second edit ran unasked')
  eq(0, #require('lathe.permission').open, 'nothing left to answer')
end)

it('a shell permission is answered through vim.ui.select with Lathe\'s options', function()
  local dir = H.start({
    H.reply({ { H.call('run_shell_command', { command = 'touch made.txt && echo made-it', description = 'make a file' }) } }),
    H.reply({ { H.text('Made the file.') } }),
  })
  local asked
  local original = vim.ui.select
  vim.ui.select = function(items, opts, cb)
    asked = { prompt = opts.prompt, items = vim.tbl_map(function(o) return opts.format_item(o) end, items), ids = vim.tbl_map(function(o) return o.optionId end, items) }
    for _, o in ipairs(items) do if o.kind == 'allow_once' then return cb(o) end end
  end
  vim.cmd('Lathe make a file')
  local stop = H.wait_turn()
  vim.ui.select = original
  eq('end_turn', stop)
  ok(asked, 'vim.ui.select was called')
  ok(asked.prompt:find('touch made.txt', 1, true), 'the question names the command: ' .. asked.prompt)
  ok(vim.tbl_contains(asked.ids, 'allow_once') and vim.tbl_contains(asked.ids, 'reject_once'), vim.inspect(asked.ids))
  ok(vim.loop.fs_stat(dir .. '/made.txt'), 'the command ran')
  ok(H.chat():find('made-it', 1, true), 'its output is in the chat')
end)

it('an answer kept for the workspace is offered apart from the session\'s; /permissions lists it and revokes it', function()
  local home = vim.fn.tempname()
  local dir = H.start({
    H.reply({ { H.call('run_shell_command', { command = 'touch kept.txt', description = 'make a file' }) } }),
    H.reply({ { H.text('Made it.') } }),
  }, { env = { GEMINI_CLI_HOME = home, XDG_STATE_HOME = home .. '/state' } })
  local names
  local original = vim.ui.select
  vim.ui.select = function(items, opts, cb)
    names = vim.tbl_map(function(o) return opts.format_item(o) end, items)
    for _, o in ipairs(items) do if o.optionId == 'allow_workspace_command' then return cb(o) end end
    cb(nil)
  end
  vim.cmd('Lathe make a file')
  local stop = H.wait_turn()
  vim.ui.select = original
  eq('end_turn', stop)
  ok(vim.tbl_contains(names, 'Allow touch for this session'), vim.inspect(names))
  ok(vim.tbl_contains(names, 'Always allow touch in this workspace'), vim.inspect(names))
  ok(vim.tbl_contains(names, 'Always allow touch in every workspace'), vim.inspect(names))
  ok(vim.loop.fs_stat(dir .. '/kept.txt'), 'the command ran')
  ok(H.chat():find('Kept: `touch` (shell commands) allowed in this workspace from now on.', 1, true), H.chat())
  require('lathe').last_stop = nil
  vim.cmd('Lathe /permissions')
  eq('end_turn', H.wait_turn())
  ok(H.chat():find('1. `touch` (shell commands) — in this workspace (' .. home .. '/state/lathe/policies/', 1, true), H.chat())
  require('lathe').last_stop = nil
  vim.cmd('Lathe /permissions revoke 1')
  eq('end_turn', H.wait_turn())
  ok(H.chat():find('Revoked: `touch` (shell commands) in this workspace is asked about again.', 1, true), H.chat())
  ok(vim.tbl_contains(vim.tbl_map(function(c) return c.name end, require('lathe.client').session.commands), 'permissions'),
    'offered for completion')
end)

it('a dismissed shell question rejects the command', function()
  local dir = H.start({
    H.reply({ { H.call('run_shell_command', { command = 'touch never.txt', description = 'make a file' }) } }),
    H.reply({ { H.text('Did not run it.') } }),
  })
  local original = vim.ui.select
  vim.ui.select = function(_, _, cb) cb(nil) end
  vim.cmd('Lathe make a file')
  local stop = H.wait_turn()
  vim.ui.select = original
  eq('end_turn', stop)
  eq(nil, vim.loop.fs_stat(dir .. '/never.txt'), 'the command did not run')
end)

it('a new file is written and opened in a buffer; an unloaded file is edited on disk', function()
  local dir = H.start({}, { approval_mode = 'yolo' })
  H.write(dir .. '/disk.txt', 'on disk\n')
  H.replay_file(dir, {
    H.reply({ { H.call('write_file', { file_path = dir .. '/sub/new.txt', content = 'fresh\n' }) } }),
    H.reply({ { replace(dir .. '/disk.txt', 'on disk', 'changed on disk') } }),
    H.reply({ { H.text('Both done.') } }),
  })
  vim.cmd('Lathe make files')
  eq('end_turn', H.wait_turn())
  eq('fresh\n', H.read(dir .. '/sub/new.txt'), 'new file on disk')
  local nb = require('lathe.fs').find_buf(dir .. '/sub/new.txt')
  ok(nb and vim.bo[nb].buflisted, 'the new file has a listed buffer')
  eq({ 'fresh' }, H.lines(nb))
  eq('changed on disk\n', H.read(dir .. '/disk.txt'), 'unloaded file edited on disk')
  eq(nil, require('lathe.fs').find_buf(dir .. '/disk.txt'), 'and not loaded')
end)

it(':LatheDiff reviews the edit in a diffthis split', function()
  local dir = H.start({})
  local file = dir .. '/hello.txt'
  H.write(file, 'hello world\n')
  H.replay_file(dir, { H.reply({ { replace(file, 'hello world', 'hello diff') } }), H.reply({ { H.text('ok') } }) })
  vim.cmd('edit ' .. file)
  local b = vim.api.nvim_get_current_buf()
  vim.cmd('Lathe edit')
  wait_for(function() return #review_marks(b) > 0 end, 'the inline review')
  vim.cmd('LatheDiff')
  local diffwins = vim.tbl_filter(function(w) return vim.wo[w].diff end, vim.api.nvim_list_wins())
  eq(2, #diffwins, 'two windows in diff mode')
  local proposed = vim.api.nvim_win_get_buf(vim.api.nvim_get_current_win())
  eq({ 'hello diff' }, H.lines(proposed), 'the proposal')
  vim.cmd('LatheAccept')
  eq('end_turn', H.wait_turn())
  eq({ 'hello diff' }, H.lines(b))
  eq(0, #vim.tbl_filter(function(w) return vim.wo[w].diff end, vim.api.nvim_list_wins()), 'diff split closed')
end)

-- The chat line of a changed file, for the chat's keep / undo keys.
local function changed_line(rel)
  local chat = require('lathe.chat')
  local lines = chat.lines()
  for i = #lines, 1, -1 do
    if lines[i]:find('- `' .. rel .. '`', 1, true) == 1 then return i end
  end
end

it('changed files are listed after the turn, stay across prompts, and are kept or undone per file', function()
  local dir = H.start({}, { approval_mode = 'yolo' })
  H.write(dir .. '/a.txt', 'alpha\n')
  H.write(dir .. '/b.txt', 'beta\n')
  H.replay_file(dir, {
    H.reply({ { replace(dir .. '/a.txt', 'alpha', 'ALPHA') } }),
    H.reply({ { H.call('write_file', { file_path = dir .. '/b.txt', content = 'BETA\nmore\n' }) } }),
    H.reply({ { H.text('Changed both.') } }),
    H.reply({ { H.text('Something else.') } }),
  })
  vim.cmd('edit ' .. dir .. '/a.txt')
  local a = vim.api.nvim_get_current_buf()
  vim.cmd('Lathe change both')
  eq('end_turn', H.wait_turn())
  local text = H.chat()
  ok(text:find('### Changed files\n- `a.txt` +1 -1\n- `b.txt` +2 -1\n', 1, true), text)
  -- Another prompt: the review lasts until the person decides.
  require('lathe').last_stop = nil
  vim.cmd('Lathe and now?')
  eq('end_turn', H.wait_turn())
  local chat = require('lathe.chat')
  vim.api.nvim_set_current_win(chat.win)
  vim.api.nvim_win_set_cursor(chat.win, { changed_line('a.txt'), 0 })
  H.press('\\r') -- the reject key undoes the file on its line
  eq({ 'alpha' }, H.lines(a), 'the buffer is back')
  eq('alpha\n', H.read(dir .. '/a.txt'), 'and saved')
  ok(H.chat():find('- `a.txt` +1 -1 · undone', 1, true), H.chat())
  vim.cmd('LatheKeep') -- one file left: no need to name it
  eq('BETA\nmore\n', H.read(dir .. '/b.txt'), 'kept')
  ok(H.chat():find('- `b.txt` +2 -1 · kept', 1, true), H.chat())
  eq({}, require('lathe.changes').pending())
  vim.api.nvim_buf_call(a, function() vim.cmd('silent normal u') end)
  eq({ 'ALPHA' }, H.lines(a), 'the undo of Undo is one u')
end)

it('files a shell command changed come under review from its diffs: b.txt undone in its buffer, the created c.txt kept', function()
  local dir = H.start({})
  H.write(dir .. '/b.txt', 'old\n')
  H.replay_file(dir, {
    H.reply({ { H.call('run_shell_command', { command = 'echo new > b.txt && echo made > c.txt', description = 'change files' }) } }),
    H.reply({ { H.text('Changed them.') } }),
  })
  vim.cmd('edit ' .. dir .. '/b.txt') -- the person has b.txt open
  local b = vim.api.nvim_get_current_buf()
  local original = vim.ui.select
  vim.ui.select = function(items, _, cb)
    for _, o in ipairs(items) do if o.kind == 'allow_once' then return cb(o) end end
    cb(nil)
  end
  vim.cmd('Lathe change the files')
  local stop = H.wait_turn()
  vim.ui.select = original
  eq('end_turn', stop)
  eq('new\n', H.read(dir .. '/b.txt'), 'the command ran')
  eq({ 'new' }, H.lines(b), 'the open buffer shows what the command wrote')
  local text = H.chat()
  ok(text:find('-old\n+new', 1, true), 'the call shows its diff:\n' .. text)
  ok(text:find('### Changed files\n- `b.txt` +1 -1\n- `c.txt` +1 -0\n', 1, true), text)
  local chat = require('lathe.chat')
  vim.api.nvim_set_current_win(chat.win)
  vim.api.nvim_win_set_cursor(chat.win, { changed_line('b.txt'), 0 })
  H.press('\\r') -- the reject key undoes the file on its line
  eq({ 'old' }, H.lines(b), 'the buffer is back')
  eq('old\n', H.read(dir .. '/b.txt'), 'and saved')
  ok(H.chat():find('- `b.txt` +1 -1 · undone', 1, true), H.chat())
  vim.api.nvim_win_set_cursor(chat.win, { changed_line('c.txt'), 0 })
  H.press('\\a') -- the accept key keeps it
  eq('made\n', H.read(dir .. '/c.txt'), 'kept')
  ok(H.chat():find('- `c.txt` +1 -0 · kept', 1, true), H.chat())
  eq({}, require('lathe.changes').pending())
end)

it(':LatheUndo leaves a file the person edited after Lathe alone, and says why; :LatheUndo! undoes it', function()
  local dir = H.start({}, { approval_mode = 'yolo' })
  H.write(dir .. '/c.txt', 'one\ntwo\n')
  H.replay_file(dir, {
    H.reply({ { replace(dir .. '/c.txt', 'one', 'ONE') } }),
    H.reply({ { H.text('Changed it.') } }),
  })
  vim.cmd('edit ' .. dir .. '/c.txt')
  local c = vim.api.nvim_get_current_buf()
  vim.cmd('Lathe change c')
  eq('end_turn', H.wait_turn())
  eq({ 'ONE', 'two' }, H.lines(c))
  vim.api.nvim_buf_set_lines(c, 2, 2, false, { 'three by the person' })
  local seen = {}
  local original = vim.notify
  vim.notify = function(msg) seen[#seen + 1] = msg end
  vim.cmd('LatheUndo ' .. dir .. '/c.txt')
  vim.notify = original
  eq({ 'ONE', 'two', 'three by the person' }, H.lines(c), 'the person\'s line is not dropped')
  ok(seen[1] and seen[1]:find('edited after Lathe wrote it', 1, true), vim.inspect(seen))
  eq(1, #require('lathe.changes').pending(), 'still under review')
  vim.cmd('LatheUndo! ' .. dir .. '/c.txt')
  eq({ 'one', 'two' }, H.lines(c), 'forced: the text from before Lathe')
end)

it(':LatheUndo of a file written without a last newline and opened afterwards is not mistaken for the person\'s edit', function()
  local dir = H.start({}, { approval_mode = 'yolo' })
  H.write(dir .. '/n.txt', 'a')
  H.replay_file(dir, {
    H.reply({ { H.call('write_file', { file_path = dir .. '/n.txt', content = 'b' }) } }),
    H.reply({ { H.text('Wrote b.') } }),
  })
  vim.cmd('Lathe write b')
  eq('end_turn', H.wait_turn())
  vim.cmd('edit ' .. dir .. '/n.txt') -- the buffer reads it with a last newline
  local seen = {}
  local original = vim.notify
  vim.notify = function(msg) seen[#seen + 1] = msg end
  vim.cmd('LatheUndo ' .. dir .. '/n.txt')
  vim.notify = original
  eq({}, vim.tbl_filter(function(m) return m:find('edited after', 1, true) end, seen))
  eq({ 'a' }, H.lines(vim.api.nvim_get_current_buf()))
end)

it('follow skips folders and files that do not exist; switched off, it opens nothing', function()
  local dir = H.start({})
  H.write(dir .. '/sub/x.txt', 'x\n')
  H.write(dir .. '/y.txt', 'y\n')
  vim.cmd('LatheFollow on')
  H.replay_file(dir, {
    H.reply({ { H.call('list_directory', { dir_path = dir .. '/sub' }) } }),
    H.reply({ { H.call('read_file', { file_path = dir .. '/missing.txt' }) } }),
    H.reply({ { H.text('Looked around.') } }),
    H.reply({ { H.call('read_file', { file_path = dir .. '/y.txt' }) } }),
    H.reply({ { H.text('Read y.') } }),
  })
  local before = vim.api.nvim_list_bufs()
  vim.cmd('Lathe look around')
  eq('end_turn', H.wait_turn())
  ok(H.chat():find('Looked around.', 1, true), H.chat())
  eq(-1, vim.fn.bufnr(dir .. '/sub'), 'no buffer for the folder')
  eq(-1, vim.fn.bufnr(dir .. '/missing.txt'), 'no buffer for the missing file')
  eq(before, vim.api.nvim_list_bufs(), 'no buffer at all')
  vim.cmd('LatheFollow off')
  require('lathe').last_stop = nil
  vim.cmd('Lathe read y')
  eq('end_turn', H.wait_turn())
  ok(H.chat():find('Read y.', 1, true), H.chat())
  eq(nil, require('lathe.fs').find_buf(dir .. '/y.txt'), 'follow off: y.txt is not opened')
end)

it('follow opens the file the agent reads, at its line, without taking the cursor', function()
  local dir = H.start({})
  vim.cmd('LatheFollow')
  eq(true, require('lathe.config').options.follow, ':LatheFollow turns it on')
  local lines = {}
  for i = 1, 50 do lines[i] = 'line ' .. i end
  H.write(dir .. '/long.txt', table.concat(lines, '\n') .. '\n')
  H.replay_file(dir, {
    H.reply({ { H.call('read_file', { file_path = dir .. '/long.txt', start_line = 30, end_line = 34 }) } }),
    H.reply({ { H.text('Read it.') } }),
  })
  vim.cmd('Lathe read long.txt')
  local chat = require('lathe.chat')
  eq('end_turn', H.wait_turn())
  local b = require('lathe.fs').find_buf(dir .. '/long.txt')
  ok(b, 'the file is loaded')
  local w = vim.fn.bufwinid(b)
  ok(w ~= -1 and w ~= chat.win and w ~= chat.prompt_win, 'shown in the person\'s window')
  eq(30, vim.api.nvim_win_get_cursor(w)[1], 'at the line the agent read')
  eq(chat.prompt_win, vim.api.nvim_get_current_win(), 'the cursor stays in the prompt')
  -- The same session replayed (New, then back to it): its locations are history, not followed.
  local client = require('lathe.client')
  local first = client.session.id
  vim.cmd('bwipeout! ' .. b)
  vim.cmd('LatheNew')
  wait_for(function() return client.session and client.session.id ~= first and client.state == 'ready' end, 'the new session')
  local select = vim.ui.select
  vim.ui.select = function(items, _, cb)
    for _, s in ipairs(items) do if s.sessionId == first then return cb(s) end end
    cb(nil)
  end
  vim.cmd('LatheSessions') -- the list comes back later, then the choice
  local replayed = pcall(wait_for, function()
    return client.session.id == first and client.state == 'ready' and H.chat():find('Read it.', 1, true)
  end, 'the replay')
  vim.ui.select = select
  ok(replayed, 'the session replayed:\n' .. H.chat())
  ok(H.chat():find('long.txt', 1, true), 'the replay shows the read:\n' .. H.chat())
  eq(nil, require('lathe.fs').find_buf(dir .. '/long.txt'), 'the replayed read is not followed')
  vim.cmd('LatheFollow off')
  eq(false, require('lathe.config').options.follow)
end)
