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

it(':LatheImage attaches an image, sent as image content since Lathe accepts images', function()
  local dir = H.start({ H.reply({ { H.text('A single dot.') } }) })
  -- A 1x1 PNG.
  local png = '\137PNG\r\n\26\n\0\0\0\rIHDR\0\0\0\1\0\0\0\1\8\6\0\0\0\31\21\196\137\0\0\0\rIDATx\218c\96\96\96\248\15\0\1\4\1\0\95\229\195\75\0\0\0\0IEND\174B\96\130'
  H.write(dir .. '/dot.png', png)
  vim.cmd('LatheImage ' .. dir .. '/dot.png')
  local sent = H.sent_by('Lathe what is in the image?')
  local client = require('lathe.client')
  eq(true, client.agent.agentCapabilities.promptCapabilities.image, 'Lathe advertises images')
  eq('image', sent[2].type)
  eq('image/png', sent[2].mimeType)
  eq(require('lathe.base64').encode(png), sent[2].data)
  if vim.base64 then eq(png, vim.base64.decode(sent[2].data), 'round trip through Neovim\'s own base64') end
  ok(H.chat():find('`@dot.png`', 1, true), H.chat())
  ok(H.chat():find('A single dot.', 1, true), H.chat())
  eq({}, require('lathe').pending_context, 'sent once')
end)

it(':LatheImage without a path takes the clipboard\'s PNG, bytes intact (wl-paste failing, then xclip)', function()
  local dir = H.start({ H.reply({ { H.text('A clipboard picture.') } }) })
  -- A real PNG: its NUL bytes must arrive as they are.
  local png = '\137PNG\r\n\26\n\0\0\0\rIHDR\0\0\0\1\0\0\0\1\8\6\0\0\0\31\21\196\137\0\0\0\rIDATx\218c\96\96\96\248\15\0\1\4\1\0\95\229\195\75\0\0\0\0IEND\174B\96\130'
  H.write(dir .. '/clip.png', png)
  -- Stand-ins first on PATH: wl-paste fails as it does outside Wayland; xclip prints the PNG.
  H.write(dir .. '/bin/wl-paste', '#!/bin/sh\necho "Failed to connect to a Wayland server" >&2\nexit 1\n')
  H.write(dir .. '/bin/xclip', '#!/bin/sh\n[ "$*" = "-selection clipboard -t image/png -o" ] || exit 1\ncat "' .. dir .. '/clip.png"\n')
  vim.fn.setfperm(dir .. '/bin/wl-paste', 'rwxr-xr-x')
  vim.fn.setfperm(dir .. '/bin/xclip', 'rwxr-xr-x')
  local path = vim.env.PATH
  vim.env.PATH = dir .. '/bin:' .. path
  vim.cmd('LatheImage')
  vim.env.PATH = path
  local sent = H.sent_by('Lathe and this?')
  eq('image', sent[2].type)
  eq(require('lathe.base64').encode(png), sent[2].data)
  ok(H.chat():find('`@clipboard image`', 1, true), H.chat())
end)

it(':LatheImage says why when it cannot attach', function()
  local dir = H.start({})
  H.write(dir .. '/notes.txt', 'text\n')
  local seen = {}
  local original = vim.notify
  vim.notify = function(msg) seen[#seen + 1] = msg end
  vim.cmd('LatheImage ' .. dir .. '/notes.txt')
  vim.cmd('LatheImage ' .. dir .. '/missing.png')
  vim.notify = original
  ok(seen[1]:find('not an image', 1, true), vim.inspect(seen))
  ok(seen[2]:find('cannot read', 1, true), vim.inspect(seen))
  eq({}, require('lathe').pending_context)
end)

it('write_todos: the plan is pinned at the end of the chat, the card does not repeat it', function()
  H.start({
    H.reply({ { H.call('write_todos', { todos = { { description = 'Read the code', status = 'completed' },
      { description = 'Write the fix', status = 'in_progress' } } }) } }),
    H.reply({ { H.text('Planned and working.') } }),
  })
  vim.cmd('Lathe plan it')
  eq('end_turn', H.wait_turn())
  local text = H.chat()
  ok(text:find('Planned and working.\n\n### Plan 1/2\n- [x] Read the code\n- [-] Write the fix\n', 1, true), text)
  ok(text:find('### Write Todos: Set 2 todo(s)\n_The plan is pinned at the end of the chat, above the prompt._', 1, true), text)
  eq(1, select(2, text:gsub('Read the code', '')), 'the list appears once')
end)
