-- A small headless test runner: loads the spec named by $LATHE_TEST_SPEC,
-- runs its cases in order, prints "ok"/"FAIL" per case and a last line
-- "N passed, N failed", then exits 0 only when nothing failed.
local cases, out = {}, io.stdout

_G.it = function(name, fn) cases[#cases + 1] = { name = name, fn = fn } end

local function fmt(v) return type(v) == 'string' and ('%q'):format(v) or vim.inspect(v) end

_G.eq = function(want, got, what)
  if not vim.deep_equal(want, got) then
    error(('%sexpected %s, got %s'):format(what and (what .. ': ') or '', fmt(want), fmt(got)), 2)
  end
end

_G.ok = function(cond, what)
  if not cond then error(what or 'assertion failed', 2) end
  return cond
end

-- Waits for cond() while the event loop runs. The limit only stops a hung
-- case; no test asserts how fast anything is.
_G.wait_for = function(cond, what, ms)
  local done = vim.wait(ms or 30000, function()
    local good, v = pcall(cond)
    return good and v
  end, 20)
  if not done then error('timed out waiting for ' .. (what or 'a condition'), 2) end
end

-- Notifications go to stderr so stdout holds only results.
vim.notify = function(msg) io.stderr:write('[notify] ' .. tostring(msg) .. '\n') end

local spec = os.getenv('LATHE_TEST_SPEC')
local label = os.getenv('LATHE_TEST_LABEL') or ''
local loaded, err = pcall(dofile, spec)
local passed, failed = 0, 0
if not loaded then
  failed = 1
  out:write(('FAIL - %s%s: cannot load: %s\n'):format(label, spec, err))
end
for _, c in ipairs(cases) do
  local good, e = xpcall(c.fn, debug.traceback)
  if good then
    passed = passed + 1
    out:write(('ok   - %s%s\n'):format(label, c.name))
  else
    failed = failed + 1
    out:write(('FAIL - %s%s\n%s\n'):format(label, c.name, tostring(e):gsub('\n', '\n    ')))
  end
  out:flush()
end
out:write(('%d passed, %d failed\n'):format(passed, failed))
out:flush()
if _G.after_all then pcall(_G.after_all) end
if failed > 0 then vim.cmd('cquit 1') else vim.cmd('qall!') end
