-- Options given to require('lathe').setup(), merged over the defaults.
local M = {}

M.defaults = {
  cmd = 'lathe',          -- the Lathe binary (a name on $PATH or a path)
  release_dir = nil,      -- where release tarballs are unpacked; nil: stdpath('data')/lathe
  args = {},              -- extra arguments, e.g. { '--model', 'gemini-2.5-flash' }
  env = {},               -- extra environment, e.g. { GEMINI_API_KEY = '...' }
  approval_mode = nil,    -- mode to switch to after a session starts: 'default', 'autoEdit', 'yolo', 'plan'
  layout = 'right',       -- 'right', 'left', 'below' or 'float'
  width = 0.4,            -- split width (fraction of the editor, or columns when > 1)
  height = 0.35,          -- 'below' split height
  float = { width = 0.8, height = 0.8, border = 'rounded' },
  prompt_height = 4,      -- lines of the prompt window under the chat
  write_edits = true,     -- save a loaded buffer after Lathe edits it, so commands see the change
  review = {
    inline = true,        -- show proposed edits inside the file's buffer
    open = true,          -- show that buffer in a window when it is hidden
  },
  follow = false,         -- open the file the agent reads or edits, at the line, in your window
  restart = true,         -- restart Lathe when it dies
  max_restarts = 3,       -- give up after this many deaths without a finished turn
  -- Keymaps in the chat, prompt and reviewed buffers (buffer-local). false
  -- disables one; a key the person already mapped is left alone.
  keymaps = {
    send = '<CR>',        -- normal mode, prompt buffer
    send_insert = '<C-s>',-- insert mode, prompt buffer
    cancel = '<C-c>',     -- normal mode, chat and prompt buffers
    close = 'q',          -- normal mode, chat buffer
    accept = '<LocalLeader>a', -- also keeps a changed file (its line in the chat)
    reject = '<LocalLeader>r', -- also undoes a changed file (its line in the chat)
    options = '<LocalLeader>o', -- every option Lathe offers, through vim.ui.select
    diff = '<LocalLeader>d',    -- review in a diffthis split
  },
}

M.options = vim.deepcopy(M.defaults)

function M.set(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  return M.options
end

return M
