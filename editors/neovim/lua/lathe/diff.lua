-- Line diffs of whole-file texts (ACP diff content: oldText/newText). Pure.
local M = {}

local vdiff = (vim.text and vim.text.diff) or vim.diff

-- Text to lines; a final newline ends the last line rather than adding one.
function M.lines(text)
  if text == nil or text == '' then return {} end
  local lines = vim.split(text, '\n', { plain = true })
  if lines[#lines] == '' then lines[#lines] = nil end
  return lines
end

local function with_nl(text)
  if text == nil or text == '' then return '' end
  return text:sub(-1) == '\n' and text or text .. '\n'
end

-- Hunks as { old_start, old_count, new_start, new_count } (1-based; a count of
-- 0 means the hunk sits after old_start).
function M.hunks(old, new)
  local out = {}
  for _, h in ipairs(vdiff(with_nl(old), with_nl(new), { result_type = 'indices' }) or {}) do
    out[#out + 1] = { old_start = h[1], old_count = h[2], new_start = h[3], new_count = h[4] }
  end
  return out
end

-- Unified diff lines (without file headers) for the chat.
function M.unified(old, new)
  local text = vdiff(with_nl(old), with_nl(new), { ctxlen = 2 }) or ''
  return M.lines(text)
end

-- The smallest single replacement turning `old` lines into `new` lines:
-- first, last (0-based, end-exclusive in old) and the replacement lines. One
-- nvim_buf_set_lines with it is one undo step and keeps marks elsewhere.
function M.span(old, new)
  local first = 0
  while first < #old and first < #new and old[first + 1] == new[first + 1] do first = first + 1 end
  local tail = 0
  while tail < #old - first and tail < #new - first and old[#old - tail] == new[#new - tail] do tail = tail + 1 end
  local repl = {}
  for i = first + 1, #new - tail do repl[#repl + 1] = new[i] end
  return first, #old - tail, repl
end

return M
