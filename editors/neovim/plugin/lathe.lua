-- Commands for lathe.nvim. Nothing loads until one is used; no global keymaps.
if vim.g.loaded_lathe then return end
vim.g.loaded_lathe = true

local function lathe() return require('lathe') end
local cmd = vim.api.nvim_create_user_command

cmd('Lathe', function(o) lathe().command(o) end,
  { nargs = '*', range = true, desc = 'Open the Lathe chat; with text, send it; with a range, attach the lines' })
cmd('LatheCancel', function() lathe().cancel() end, { desc = 'Cancel the running Lathe turn' })
cmd('LatheStopAgent', function(o) lathe().stop_agent(o.args) end,
  { nargs = '?', desc = 'Stop one sub-agent (the one under the cursor in the chat, or the only one running); the turn goes on' })
cmd('LatheMode', function(o) lathe().mode(o.args) end, {
  nargs = '?', desc = 'Choose a Lathe mode',
  complete = function()
    local modes = require('lathe.client').modes() or {}
    return vim.tbl_map(function(m) return m.id end, modes.availableModes or {})
  end,
})
-- The values of one of Lathe's config options (client.<getter>), for completion.
local function values_of(getter)
  return function()
    local option = require('lathe.client')[getter]()
    if not option then return {} end
    return vim.tbl_map(function(v) return v.value end, lathe().select_values(option))
  end
end
cmd('LatheModel', function(o) lathe().model(o.args) end,
  { nargs = '?', desc = 'Choose the model, when Lathe offers a choice', complete = values_of('model_option') })
cmd('LatheEffort', function(o) lathe().effort(o.args) end,
  { nargs = '?', desc = 'Choose how much the model thinks, when Lathe offers it', complete = values_of('effort_option') })
cmd('LatheSessions', function() lathe().sessions() end, { desc = 'Reopen a past Lathe session, when supported' })
cmd('LatheDeleteSession', function() lathe().delete_session() end,
  { desc = 'Delete a past Lathe session (after you confirm), when supported' })
cmd('LatheSteer', function(o) lathe().steer(o.args) end,
  { nargs = '*', desc = 'Add text (or the prompt) to the running Lathe turn, when supported' })
cmd('LatheNew', function() lathe().new_session() end, { desc = 'Start a new Lathe session' })
cmd('LatheImage', function(o) lathe().image(o.args) end,
  { nargs = '?', complete = 'file', desc = 'Attach an image file (or, without a path, the clipboard image) to the next prompt' })
cmd('LatheKeep', function(o) lathe().keep(o.args) end, { nargs = '?', complete = 'file', desc = "Keep Lathe's changes to a file" })
cmd('LatheUndo', function(o) lathe().undo(o.args, o.bang) end, { nargs = '?', bang = true, complete = 'file', desc = "Undo Lathe's changes to a file" })
cmd('LatheFollow', function(o) lathe().toggle_follow(o.args) end, {
  nargs = '?', complete = function() return { 'on', 'off' } end,
  desc = 'Follow the agent (open the files it reads or edits): on, off, or toggle',
})
cmd('LatheAccept', function() lathe().accept() end, { desc = 'Accept the edit under review' })
cmd('LatheReject', function() lathe().reject() end, { desc = 'Reject the edit under review' })
cmd('LatheOptions', function() lathe().options() end, { desc = 'Answer the open question with any option Lathe offered' })
cmd('LatheDiff', function() lathe().diff() end, { desc = 'Review the proposed edit in a diff split' })
