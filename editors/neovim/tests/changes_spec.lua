-- lathe.changes without Lathe: the files a shell command changed on disk (the
-- diffs on its call's final update) come under review like Lathe's writes; an
-- edit's diffs and a replay's do not; a file already under review keeps the text
-- from before Lathe's first write.
local H = dofile(os.getenv('LATHE_TEST_DIR') .. '/helpers.lua')
local changes = require('lathe.changes')
local transcript = require('lathe.transcript')

-- A fresh folder, no file under review, no buffer of an earlier case.
local function fresh()
  changes.reset()
  changes.touched = false
  vim.cmd('silent! %bwipeout!')
  local dir = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(dir, 'p')
  return dir
end

local function paths(files) return vim.tbl_map(function(f) return vim.fn.fnamemodify(f.path, ':t') .. ' +' .. f.added .. ' -' .. f.removed end, files) end

-- A transcript that saw a call of this kind start.
local function started(id, kind)
  local t = transcript.new()
  t:apply({ sessionUpdate = 'tool_call', toolCallId = id, kind = kind, status = 'pending', title = id })
  return t
end

local function final(id, content, status)
  return { sessionUpdate = 'tool_call_update', toolCallId = id, status = status or 'completed', content = content }
end

it('a command\'s final update puts its changed files under review: Undo puts b.txt back, Keep keeps the created c.txt', function()
  local dir = fresh()
  H.write(dir .. '/b.txt', 'new\n')
  H.write(dir .. '/c.txt', 'made\n')
  local t = started('x', 'execute')
  local content = {
    { type = 'content', content = { type = 'text', text = 'done' } },
    { type = 'diff', path = dir .. '/b.txt', oldText = 'old\n', newText = 'new\n' },
    { type = 'diff', path = dir .. '/c.txt', newText = 'made\n' }, -- oldText null: created
  }
  changes.from_update({ sessionUpdate = 'tool_call_update', toolCallId = 'x', status = 'in_progress', content = content }, t)
  eq({}, changes.pending(), 'not before the final update')
  changes.from_update(final('x', content), t)
  eq(true, changes.touched, 'the turn lists them when it ends')
  eq({ 'b.txt +1 -1', 'c.txt +1 -0' }, paths(changes.pending()))
  eq(true, (changes.undo(dir .. '/b.txt')))
  eq('old\n', H.read(dir .. '/b.txt'), 'b.txt as it was before the command')
  eq(true, changes.keep(dir .. '/c.txt'))
  eq('made\n', H.read(dir .. '/c.txt'), 'c.txt kept')
  eq({}, changes.pending())
end)

it('a file a command created is removed by Undo, as one Lathe created through write_file is; a deleted one comes back', function()
  local dir = fresh()
  H.write(dir .. '/c.txt', 'made\n')
  local t = started('x', 'execute')
  changes.from_update(final('x', {
    { type = 'diff', path = dir .. '/c.txt', newText = 'made\n' },
    { type = 'diff', path = dir .. '/gone.txt', oldText = 'was here\n', newText = '' },
    { type = 'content', content = { type = 'text', text = 'gone.txt was deleted' } },
  }, 'failed'), t) -- a command that failed may have changed files too
  eq({ 'c.txt +1 -0', 'gone.txt +0 -1' }, paths(changes.pending()))
  eq(true, (changes.undo(dir .. '/c.txt')))
  eq(nil, vim.loop.fs_stat(dir .. '/c.txt'), 'c.txt is gone again')
  eq(true, (changes.undo(dir .. '/gone.txt')))
  eq('was here\n', H.read(dir .. '/gone.txt'))
end)

it('an edit\'s diffs are not tracked again, and a file under review keeps the text from before Lathe\'s first write', function()
  local dir = fresh()
  local a = dir .. '/a.txt'
  H.write(a, 'one\n')
  -- write_file: tracked through fs/write_text_file; its diff says oldText "" (what the model saw).
  changes.before(a)
  H.write(a, 'ONE\n')
  changes.wrote(a)
  local e = started('w', 'edit')
  changes.from_update(final('w', { { type = 'diff', path = a, oldText = '', newText = 'ONE\n' } }), e)
  eq({ 'a.txt +1 -1' }, paths(changes.pending()), 'measured from the text before the write, not the diff\'s')
  -- Then a command appends to it.
  H.write(a, 'ONE\ntwo\n')
  local t = started('x', 'execute')
  changes.from_update(final('x', { { type = 'diff', path = a, oldText = 'ONE\n', newText = 'ONE\ntwo\n' } }), t)
  eq({ 'a.txt +2 -1' }, paths(changes.pending()))
  eq(true, (changes.undo(a)), 'Undo without ! : the file is as the command left it')
  eq('one\n', H.read(a), 'back to the text from before Lathe')
end)

it('an edit\'s diff on a file Lathe did not write is not taken for a command\'s', function()
  local dir = fresh()
  local t = started('w', 'edit')
  changes.from_update(final('w', { { type = 'diff', path = dir .. '/r.txt', oldText = 'a\n', newText = 'b\n' } }), t)
  eq({}, changes.pending())
  eq(false, changes.touched)
end)

it('a replayed command (a reopened session) is history: nothing comes under review', function()
  local dir = fresh()
  H.write(dir .. '/r.txt', 'after\n')
  local client = require('lathe.client')
  local t = started('x', 'execute')
  client.loading = true
  changes.from_update(final('x', { { type = 'diff', path = dir .. '/r.txt', oldText = 'before\n', newText = 'after\n' } }), t)
  client.loading = false
  eq({}, changes.pending())
end)

it('a loaded buffer is reloaded with what the command wrote, and Undo puts the old text back in it', function()
  local dir = fresh()
  local b_path = dir .. '/b.txt'
  H.write(b_path, 'old\n')
  vim.cmd('edit ' .. vim.fn.fnameescape(b_path))
  local b = vim.api.nvim_get_current_buf()
  H.write(b_path, 'new\n') -- the command, on disk
  changes.from_update(final('x', { { type = 'diff', path = b_path, oldText = 'old\n', newText = 'new\n' } }), started('x', 'execute'))
  eq({ 'new' }, vim.api.nvim_buf_get_lines(b, 0, -1, false), 'the buffer shows the command\'s text')
  eq({ 'b.txt +1 -1' }, paths(changes.pending()))
  eq(true, (changes.undo(b_path)))
  eq({ 'old' }, vim.api.nvim_buf_get_lines(b, 0, -1, false))
  eq('old\n', H.read(b_path), 'and saved')
end)

it('a modified buffer is left alone; Undo then asks for :LatheUndo!', function()
  local dir = fresh()
  local b_path = dir .. '/b.txt'
  H.write(b_path, 'old\n')
  vim.cmd('edit ' .. vim.fn.fnameescape(b_path))
  local b = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(b, 1, 1, false, { 'unsaved' })
  H.write(b_path, 'new\n')
  changes.from_update(final('x', { { type = 'diff', path = b_path, oldText = 'old\n', newText = 'new\n' } }), started('x', 'execute'))
  eq({ 'old', 'unsaved' }, vim.api.nvim_buf_get_lines(b, 0, -1, false), 'the person\'s unsaved text stays')
  local done, why = changes.undo(b_path)
  eq(false, done)
  ok(why:find(':LatheUndo!', 1, true), why)
  eq(true, (changes.undo(b_path, true)))
  eq('old\n', H.read(b_path))
  eq({ 'old' }, vim.api.nvim_buf_get_lines(b, 0, -1, false), 'the buffer reloaded what is on disk')
  eq(false, vim.bo[b].modified)
  vim.api.nvim_buf_call(b, function() vim.cmd('silent normal u') end)
  eq({ 'old', 'unsaved' }, vim.api.nvim_buf_get_lines(b, 0, -1, false), 'one u brings the unsaved text back')
end)

it('a loaded file the command deleted is listed, and Undo writes it back from its buffer', function()
  local dir = fresh()
  local g = dir .. '/gone.txt'
  H.write(g, 'was here\n')
  vim.cmd('edit ' .. vim.fn.fnameescape(g))
  local b = vim.api.nvim_get_current_buf()
  os.remove(g)
  changes.from_update(final('x', { { type = 'diff', path = g, oldText = 'was here\n', newText = '' },
    { type = 'content', content = { type = 'text', text = 'gone.txt was deleted' } } }), started('x', 'execute'))
  eq({ 'gone.txt +0 -1' }, paths(changes.pending()))
  eq(true, (changes.undo(g)))
  eq('was here\n', H.read(g))
  eq({ 'was here' }, vim.api.nvim_buf_get_lines(b, 0, -1, false))
end)
