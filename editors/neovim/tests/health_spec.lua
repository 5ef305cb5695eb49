-- :checkhealth lathe against the real binary.
local H = dofile(os.getenv('LATHE_TEST_DIR') .. '/helpers.lua')

it(':checkhealth lathe reports the binary, its version, the key and Neovim', function()
  H.start({})
  vim.cmd('silent checkhealth lathe')
  local text = table.concat(H.lines(0), '\n')
  ok(text:find('Lathe binary: ' .. vim.fn.exepath(H.bin), 1, true), text)
  ok(text:find('Lathe version: ', 1, true), text)
  ok(text:find('Neovim 0.', 1, true), text)
  ok(text:find('GEMINI_API_KEY', 1, true), text)
  ok(not text:find('ERROR', 1, true), text)
end)

it(':checkhealth lathe reports a missing binary as an error', function()
  H.start({}, { cmd = '/nonexistent/lathe' })
  vim.cmd('silent checkhealth lathe')
  local text = table.concat(H.lines(0), '\n')
  ok(text:find('Lathe binary not found', 1, true), text)
end)

it(':checkhealth lathe finds a release unpacked into the release folder when lathe is not on PATH', function()
  local dir = vim.fn.tempname()
  local bin = dir .. '/lathe-0.1.0-linux-x64/bin/lathe'
  vim.fn.mkdir(vim.fn.fnamemodify(bin, ':h'), 'p')
  vim.fn.mkdir(dir .. '/lathe-0.0.9-linux-x64/bin', 'p')
  vim.loop.fs_symlink(H.bin, bin)
  vim.loop.fs_symlink(H.bin, dir .. '/lathe-0.0.9-linux-x64/bin/lathe')
  local path = vim.env.PATH
  vim.env.PATH = '/usr/bin:/bin'
  H.start({}, { cmd = 'lathe', release_dir = dir })
  vim.cmd('silent checkhealth lathe')
  vim.env.PATH = path
  local text = table.concat(H.lines(0), '\n')
  ok(text:find('Lathe binary: ' .. bin .. ' (from the release folder)', 1, true), text)
  ok(text:find('Lathe version: lathe ', 1, true), text)
end)

it(':checkhealth lathe says how to install lathe when it is nowhere', function()
  local path = vim.env.PATH
  vim.env.PATH = '/usr/bin:/bin'
  H.start({}, { cmd = 'lathe', release_dir = vim.fn.tempname() })
  vim.cmd('silent checkhealth lathe')
  vim.env.PATH = path
  local text = table.concat(H.lines(0), '\n')
  ok(text:find('Lathe binary not found', 1, true), text)
  ok(text:find('tar -xzf lathe-<version>-linux-x64.tar.gz', 1, true), text)
end)

it(':help lathe opens the plugin\'s help', function()
  vim.cmd('help lathe')
  ok(vim.api.nvim_buf_get_name(0):match('doc/lathe%.txt$'), vim.api.nvim_buf_get_name(0))
  vim.cmd('help :LatheSessions')
  ok(vim.api.nvim_get_current_line():find('LatheSessions', 1, true), vim.api.nvim_get_current_line())
end)
