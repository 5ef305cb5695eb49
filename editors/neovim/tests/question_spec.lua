-- Questions Lathe asks (elicitation/create: its ask_user tool) answered through
-- vim.ui.select / vim.ui.input, and the effort picker, against the real binary
-- with a recorded model; the status line's context and cost meter.
local H = dofile(os.getenv('LATHE_TEST_DIR') .. '/helpers.lua')

local usage = { promptTokenCount = 1000, candidatesTokenCount = 100, totalTokenCount = 1100 }
local ask = H.call('ask_user', { questions = { { question = 'Which login?', header = 'Auth', type = 'choice',
  options = { { label = 'OAuth', description = 'standard' }, { label = 'Keys', description = 'simple' } } } } })

-- Answers vim.ui.select by the title of an item (a function of the prompt), and
-- vim.ui.input with `typed`; returns what was asked and a restore function.
local function answering(pick, typed)
  local select, input, asked = vim.ui.select, vim.ui.input, {}
  vim.ui.select = function(items, opts, cb)
    asked[#asked + 1] = opts.prompt
    local want = pick(opts.prompt)
    for _, item in ipairs(items) do
      local label = opts.format_item and opts.format_item(item) or item
      if label == want then return cb(item) end
    end
    cb(nil)
  end
  vim.ui.input = function(opts, cb) asked[#asked + 1] = opts.prompt; cb(typed) end
  return asked, function() vim.ui.select, vim.ui.input = select, input end
end

it('ask_user asks its question as a form; the answer reaches the model, the meter shows the cost', function()
  H.start({ H.reply({ { ask } }, usage), H.reply({ { H.text('OAuth then.') } }, usage) })
  local asked, restore = answering(function(prompt)
    if prompt:find('send your answers', 1, true) then return 'Submit' end
    if prompt:find('Auth', 1, true) then return 'OAuth — standard' end
  end, '')
  vim.cmd('Lathe log me in')
  local stop = H.wait_turn()
  restore()
  eq('end_turn', stop)
  local text = H.chat()
  ok(text:find('### Question: The agent has a question for you.', 1, true), 'the question is in the chat:\n' .. text)
  ok(text:find('- **Auth**: Which login?', 1, true), 'with its field:\n' .. text)
  ok(text:find('_Answered: Auth: OAuth — standard_', 1, true), 'what was answered:\n' .. text)
  ok(text:find('**Auth** → OAuth', 1, true), 'the call shows what the model was told:\n' .. text)
  ok(text:find('OAuth then.', 1, true), text)
  ok(#asked == 3, 'the choice, the own-words field, then Submit: ' .. vim.inspect(asked))
  -- gemini-2.5-pro: 1,000 prompt tokens at $1.25 and 100 output at $10 per million, twice.
  ok(require('lathe').status_text():find('tokens · $0.0045', 1, true), require('lathe').status_text())
end)

it('a declined question is told to the model as declined; Lathe withdraws a question a cancel leaves open', function()
  H.start({ H.reply({ { ask } }), H.reply({ { H.text('Fine, no login.') } }) })
  local _, restore = answering(function(prompt)
    if prompt:find('leave the questions', 1, true) then return 'Decline' end
  end, nil)
  vim.cmd('Lathe log me in')
  local stop = H.wait_turn()
  restore()
  eq('end_turn', stop)
  ok(H.chat():find('_You declined_', 1, true), H.chat())
  ok(H.chat():find('Fine, no login.', 1, true), H.chat())

  -- The form waits; the turn is cancelled (session/cancel alone), and Lathe withdraws it.
  H.start({ H.reply({ { ask } }) })
  local select = vim.ui.select
  vim.ui.select = function() end -- the person has not answered yet
  vim.cmd('Lathe log me in')
  wait_for(function() return #require('lathe.question').open == 1 end, 'the question')
  require('lathe.client').cancel()
  wait_for(function() return H.chat():find('_Withdrawn by Lathe_', 1, true) end, 'the question withdrawn')
  local cancelled = H.wait_turn()
  vim.ui.select = select
  eq('cancelled', cancelled)
  eq(0, #require('lathe.question').open)
end)

it(':LatheEffort sets the effort from the next request; the status line shows it', function()
  H.start({ H.reply({ { H.text('ok') } }) })
  vim.cmd('Lathe hi')
  eq('end_turn', H.wait_turn())
  local option = require('lathe.client').effort_option()
  ok(option, 'gemini-2.5-pro offers an effort')
  eq('default', option.currentValue)
  eq({ 'default', 'low', 'medium', 'high' }, vim.tbl_map(function(v) return v.value end, require('lathe').select_values(option)))
  vim.cmd('LatheEffort high')
  wait_for(function() return require('lathe.client').effort_option().currentValue == 'high' end, 'the effort to be high')
  ok(require('lathe').status_text():find('effort high', 1, true), require('lathe').status_text())
  local _, restore = answering(function(prompt) if prompt:find('effort', 1, true) then return 'Low — A thinking budget of 1024 tokens' end end)
  vim.cmd('LatheEffort')
  wait_for(function() return require('lathe.client').effort_option().currentValue == 'low' end, 'the effort to be low')
  restore()
end)
