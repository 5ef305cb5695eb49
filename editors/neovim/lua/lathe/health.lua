-- :checkhealth lathe: the binary, its version, bubblewrap and ripgrep, the API
-- key, Neovim's version.
local M = {}

-- vim.health (0.9+) or the older require('health') reporters (0.7, 0.8).
local function reporter()
  local h = vim.health
  if h and (h.start or h.report_start) then
    return { start = h.start or h.report_start, ok = h.ok or h.report_ok, warn = h.warn or h.report_warn,
      error = h.error or h.report_error, info = h.info or h.report_info }
  end
  local old = require('health')
  return { start = old.report_start, ok = old.report_ok, warn = old.report_warn, error = old.report_error,
    info = old.report_info }
end

function M.check()
  local r = reporter()
  local opts = require('lathe.config').options
  r.start('lathe')
  local v = vim.version()
  local version = ('%d.%d.%d'):format(v.major, v.minor, v.patch)
  if vim.fn.has('nvim-0.7') == 1 then r.ok('Neovim ' .. version)
  else r.error('Neovim ' .. version .. ' is too old; lathe.nvim needs 0.7 or newer') end

  local binary = require('lathe.binary')
  local bin, from = binary.find(opts)
  if not bin then
    r.error(('Lathe binary not found (looked for %s)'):format(table.concat(from, ', ')), {
      ('Unpack a release: mkdir -p %s && tar -xzf lathe-<version>-linux-x64.tar.gz -C %s'):format(
        binary.release_dir(opts), binary.release_dir(opts)),
      'or install the .deb, or put lathe on $PATH',
      "or set require('lathe').setup({ cmd = '/path/to/lathe' })" })
  else
    r.ok(('Lathe binary: %s (from %s)'):format(bin, from))
    local out = vim.fn.system({ bin, '--version' })
    if vim.v.shell_error == 0 then r.ok('Lathe version: ' .. vim.trim(out))
    else r.error('`lathe --version` failed: ' .. vim.trim(out)) end
  end

  local key = (opts.env or {}).GEMINI_API_KEY or vim.env.GEMINI_API_KEY
  local args = table.concat(opts.args or {}, ' ')
  local tools = {
    { 'bwrap', 'bubblewrap', 'commands judged read-only run sealed instead of asking' },
    { 'rg', 'ripgrep', "the model's shell searches use it" },
  }
  for _, t in ipairs(tools) do
    if vim.fn.executable(t[1]) == 1 then r.ok(t[2] .. ': ' .. vim.fn.exepath(t[1]))
    else r.warn(t[2] .. ' is not installed (' .. t[3] .. ')', { 'sudo apt install ' .. t[2] }) end
  end
  if bin then r.info('For the endpoint, settings files and MCP servers, run `' .. bin .. ' doctor` in a terminal') end
  if key and key ~= '' then r.ok('GEMINI_API_KEY is set')
  elseif args:find('--fake-responses', 1, true) then r.info('No GEMINI_API_KEY; Lathe replays a recording (--fake-responses)')
  else
    r.warn('GEMINI_API_KEY is not set', { 'Export it, or pass it in setup({ env = { GEMINI_API_KEY = ... } })',
      'or log in when a prompt asks (:help lathe-login); a key Lathe kept from a login needs nothing here' })
  end

  local client = require('lathe.client')
  r.info('Connection: ' .. client.state .. (client.pid() and (' (pid ' .. client.pid() .. ')') or ''))
end

return M
