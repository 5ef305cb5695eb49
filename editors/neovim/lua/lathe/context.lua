-- What a prompt carries besides its text: a range of lines (:'<,'>Lathe) and
-- #references to open buffers (#buffer, #buffers, #path/of/file). Content is
-- taken from the buffer, unsaved text included.
local M = {}

local function buffer_text(b, l1, l2)
  return table.concat(vim.api.nvim_buf_get_lines(b, l1 - 1, l2, false), '\n') .. '\n'
end

-- An ACP content block for lines l1..l2 (or the whole buffer) of buffer b.
-- Embedded text when Lathe accepts it, otherwise a link to the file.
function M.block(b, l1, l2, embedded)
  local path = vim.api.nvim_buf_get_name(b)
  local whole = not l1
  l1, l2 = l1 or 1, l2 or vim.api.nvim_buf_line_count(b)
  local rel = vim.fn.fnamemodify(path, ':.')
  local label = whole and rel or ('%s:%d-%d'):format(rel, l1, l2)
  local uri = vim.uri_from_fname(path) .. (whole and '' or ('#L%d-L%d'):format(l1, l2))
  if embedded then
    return label, { type = 'resource', resource = { uri = uri, mimeType = 'text/plain', text = buffer_text(b, l1, l2) } }
  end
  return label, { type = 'resource_link', uri = uri, name = label }
end

-- File buffers a #reference can name.
function M.candidates()
  local out = {}
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(b)
    if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].buflisted and vim.bo[b].buftype == ''
      and name ~= '' and not name:match('^lathe://') then
      out[#out + 1] = { buf = b, rel = vim.fn.fnamemodify(name, ':.'), tail = vim.fn.fnamemodify(name, ':t') }
    end
  end
  return out
end

-- The buffers named by #tokens in text. `current` is the buffer the person
-- came from (#buffer); candidates as from M.candidates(). Pure given inputs.
function M.references(text, current, candidates)
  local found, seen = {}, {}
  local function add(b) if b and not seen[b] then seen[b] = true; found[#found + 1] = b end end
  for token in text:gmatch('#([%w%._%-/~]+)') do
    token = token:gsub('[%.]+$', '') -- a sentence's full stop is not part of the name
    if token == 'buffer' then add(current)
    elseif token == 'buffers' then for _, c in ipairs(candidates) do add(c.buf) end
    else
      for _, c in ipairs(candidates) do
        if c.rel == token or c.tail == token then add(c.buf) break end
      end
    end
  end
  return found
end

return M
