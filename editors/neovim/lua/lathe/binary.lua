-- Which Lathe binary to run: the one setup() was given (a path, or a name on
-- $PATH), else a release unpacked into the release folder
-- (`release_dir`, default stdpath('data')/lathe: lathe-<version>-linux-x64/bin/lathe,
-- the newest version first). Returns the path and where it came from, or nil
-- and the places looked at.
local M = {}

local function version_of(dir)
  local parts = {}
  for n in (dir:match('lathe%-([%d%.]+)%-') or '0'):gmatch('%d+') do parts[#parts + 1] = tonumber(n) end
  return parts
end

local function newer(a, b)
  local va, vb = version_of(a), version_of(b)
  for i = 1, math.max(#va, #vb) do
    if (va[i] or 0) ~= (vb[i] or 0) then return (va[i] or 0) > (vb[i] or 0) end
  end
  return a > b
end

function M.release_dir(opts)
  return opts.release_dir or (vim.fn.stdpath('data') .. '/lathe')
end

-- The newest lathe-*/bin/lathe under the release folder, or nil.
function M.from_release(opts)
  local found = vim.fn.glob(M.release_dir(opts) .. '/lathe-*/bin/lathe', false, true)
  table.sort(found, newer)
  for _, path in ipairs(found) do
    if vim.fn.executable(path) == 1 then return path end
  end
end

function M.find(opts)
  local given = vim.fn.exepath(opts.cmd)
  if given ~= '' then
    return given, (opts.cmd:find('/', 1, true) and 'setup({ cmd })' or '$PATH')
  end
  -- Only the default name falls back: a path the person gave is not replaced.
  if opts.cmd == 'lathe' then
    local release = M.from_release(opts)
    if release then return release, 'the release folder' end
  end
  return nil, { opts.cmd, M.release_dir(opts) .. '/lathe-*/bin/lathe' }
end

return M
