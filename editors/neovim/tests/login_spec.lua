-- Logging in on auth-required, against the real Lathe binary started without a
-- key and a fake Gemini API (helpers.fake_gemini). The person's keys are typed
-- ahead as they would type them: the number of a login in vim.ui.select's list,
-- then the key into inputsecret().
local H = dofile(os.getenv('LATHE_TEST_DIR') .. '/helpers.lua')

local function start_without_key(base_url)
  H.reset()
  local dir = H.workspace()
  require('lathe').setup({ cmd = H.bin, env = {
    GEMINI_API_KEY = '', GOOGLE_API_KEY = '', GOOGLE_GEMINI_BASE_URL = base_url, XDG_STATE_HOME = dir .. '/state',
  } })
  return dir
end

local function type_ahead(keys) vim.api.nvim_feedkeys(keys, 't', false) end

-- Runs a :Lathe command line; returns the turn's stop ('error' when it failed).
local function turn(command)
  require('lathe').last_stop = nil
  vim.cmd(command)
  return H.wait_turn()
end

it('a prompt without a key asks for a login; the key typed unseen reaches the model; :LatheLogout asks again', function()
  local fake = H.fake_gemini('Hello through the fake Gemini API.')
  start_without_key(fake.url)
  local offered = {}
  local select = vim.ui.select
  vim.ui.select = function(items, opts, cb)
    offered[#offered + 1] = vim.tbl_map(function(m) return m.id end, items)
    return select(items, opts, cb)
  end
  local good, err = pcall(function()
    type_ahead('1\rnvim-key-1234\r') -- "Use Gemini API key", then the key
    eq('end_turn', turn('Lathe who answers?'))
    eq({ { 'gemini-api-key', 'vertex-ai', 'gateway' } }, offered)
    eq({ 'nvim-key-1234' }, vim.tbl_map(function(r) return r.key end, fake.prompts()), 'the key the model saw')
    local text = H.chat()
    ok(text:find('Hello through the fake Gemini API.', 1, true), 'the answer is shown:\n' .. text)
    local _, shown = text:gsub('who answers%?', '')
    eq(1, shown, 'the prompt is shown once')
    ok(not text:find('nvim-key-1234', 1, true), 'the key is not in the chat')

    eq(2, vim.fn.exists(':LatheLogout'), ':LatheLogout exists while Lathe offers logout')
    vim.cmd('LatheLogout')
    wait_for(function() return H.chat():find('Logged out of Lathe', 1, true) end, 'the logout notice')
    type_ahead('\r') -- no choice: a cancel
    eq('error', turn('Lathe and now?'))
    eq(2, #offered, 'a login is asked for again')
    ok(H.chat():find('Login cancelled: nothing was sent and nothing changed.', 1, true), 'the cancel is said:\n' .. H.chat())
    eq(1, #fake.prompts(), 'nothing reached the model without a login')
    eq('ready', require('lathe.client').state)
  end)
  vim.ui.select = select
  fake.close()
  assert(good, err)
end)

it('a login Lathe refuses is shown with its message', function()
  start_without_key('') -- no gateway base URL anywhere
  type_ahead('3\rsome-key\r') -- "Use an AI gateway", then a key
  eq('error', turn('Lathe hello'))
  ok(H.chat():find('Could not log in: .*base URL'), 'Lathe\'s refusal is shown:\n' .. H.chat())
end)

it(':LatheLogout is absent when Lathe does not offer logout', function()
  H.reset()
  local client, lathe = require('lathe.client'), require('lathe')
  client.agent = { agentCapabilities = { auth = { logout = {} } }, authMethods = {} }
  lathe.logout_command()
  eq(2, vim.fn.exists(':LatheLogout'))
  client.agent = { agentCapabilities = {}, authMethods = {} }
  lathe.logout_command()
  eq(0, vim.fn.exists(':LatheLogout'))
end)
