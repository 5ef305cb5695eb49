-- A turn against the real Lathe binary with a recorded model: streamed text,
-- folded thoughts, tool status, usage, the prompt buffer's Enter.
local H = dofile(os.getenv('LATHE_TEST_DIR') .. '/helpers.lua')

it('streamed answer lands in the chat buffer', function()
  H.start({
    H.reply({ { H.thought('Considering the greeting') }, { H.text('Hello from ') }, { H.text('**Lathe**.\nSecond line.') } },
      { promptTokenCount = 1200, candidatesTokenCount = 30, totalTokenCount = 1230 }),
  })
  vim.cmd('Lathe say hello')
  eq('end_turn', H.wait_turn())
  local text = H.chat()
  ok(text:find('## You\n\nsay hello', 1, true), 'the prompt is shown:\n' .. text)
  ok(text:find('Hello from **Lathe**.\nSecond line.', 1, true), 'the streamed answer is joined:\n' .. text)
  ok(text:find('> Considering the greeting', 1, true), 'the thought is shown:\n' .. text)
  local chat = require('lathe.chat')
  local lnum = vim.fn.index(chat.lines(), '> Considering the greeting') + 1
  eq(1, vim.api.nvim_win_call(chat.win, function() return vim.fn.foldlevel(lnum) end), 'thought fold level')
  ok(vim.api.nvim_win_call(chat.win, function() return vim.fn.foldclosed(lnum) end) ~= -1, 'the thought is folded')
  ok(require('lathe').status_text():find('1.2k/', 1, true), 'usage in the status line: ' .. require('lathe').status_text())
end)

it('Enter in the prompt buffer sends it', function()
  H.start({ H.reply({ { H.text('Answer to the typed prompt.') } }) })
  vim.cmd('Lathe')
  local chat = require('lathe.chat')
  eq(chat.prompt_win, vim.api.nvim_get_current_win(), 'the prompt window has the cursor')
  vim.api.nvim_buf_set_lines(chat.prompt, 0, -1, false, { 'typed question' })
  vim.cmd('stopinsert')
  H.press('<CR>')
  eq('end_turn', H.wait_turn())
  ok(H.chat():find('typed question', 1, true), 'the typed prompt is in the chat')
  ok(H.chat():find('Answer to the typed prompt.', 1, true), 'the answer is in the chat')
  eq({ '' }, H.lines(chat.prompt), 'the prompt buffer is cleared')
end)

it('a shell tool call shows live output and its status', function()
  local dir
  dir = H.start({
    H.reply({ { H.call('run_shell_command', { command = 'for i in 1 2 3; do echo step$i; done; echo "$LATHE_TEST_MARK"', description = 'count' }) } }),
    H.reply({ { H.text('Counted.') } }),
  }, { approval_mode = 'yolo', env = { LATHE_TEST_MARK = 'env-from-setup' } })
  vim.cmd('Lathe count please')
  eq('end_turn', H.wait_turn())
  local text = H.chat()
  ok(text:find('### Shell: for i in 1 2 3', 1, true), 'the tool block heading:\n' .. text)
  ok(text:find('step1\nstep2\nstep3\nenv-from-setup', 1, true), 'the shell output, with setup env:\n' .. text)
  local chat = require('lathe.chat')
  local marks = vim.api.nvim_buf_get_extmarks(chat.buf, chat.ns, 0, -1, { details = true })
  local statuses = {}
  for _, m in ipairs(marks) do statuses[#statuses + 1] = m[4].virt_text[1][1] end
  ok(vim.tbl_contains(statuses, ' completed'), 'completed status shown: ' .. vim.inspect(statuses))
  ok(require('lathe').status_text():find('YOLO', 1, true), 'yolo mode in the status line')
end)
