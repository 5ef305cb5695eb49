-- Logging in on auth-required, against the real Lathe binary started without a
-- key and a fake of Google's APIs (helpers.fake_gemini). The person's keys are
-- typed ahead as they would type them: the number of a login in vim.ui.select's
-- list, then what it asks (a key into inputsecret(), a gateway's URL and headers).
local H = dofile(os.getenv('LATHE_TEST_DIR') .. '/helpers.lua')

local function start_without_key(base_url, env)
  H.reset()
  local dir = H.workspace()
  require('lathe').setup({ cmd = H.bin, env = vim.tbl_extend('force', {
    GEMINI_API_KEY = '', GOOGLE_API_KEY = '', GOOGLE_CLOUD_PROJECT = '', GOOGLE_GEMINI_BASE_URL = base_url,
    HOME = dir, XDG_STATE_HOME = dir .. '/state',
  }, env or {}) })
  return dir
end

local function type_ahead(keys) vim.api.nvim_feedkeys(keys, 't', false) end

-- Runs a :Lathe command line; returns the turn's stop ('error' when it failed).
local function turn(command)
  require('lathe').last_stop = nil
  vim.cmd(command)
  return H.wait_turn()
end

-- Records the logins offered, and whether a session was open when they were.
local function spy_select()
  local spy = { offered = {}, with_session = {} }
  local select = vim.ui.select
  vim.ui.select = function(items, opts, cb)
    if opts.prompt == 'Lathe needs a login to reach the model' then
      spy.offered[#spy.offered + 1] = vim.tbl_map(function(m) return m.id end, items)
      spy.with_session[#spy.with_session + 1] = require('lathe.client').session ~= nil
    end
    return select(items, opts, cb)
  end
  function spy.restore() vim.ui.select = select end
  return spy
end

local all_logins = { 'oauth-personal', 'gemini-api-key', 'vertex-ai', 'gateway' }

it('a new session without a key asks for a login; the key typed unseen reaches the model; :LatheLogout asks again', function()
  local fake = H.fake_gemini('Hello through the fake Gemini API.')
  start_without_key(fake.url)
  local spy = spy_select()
  local good, err = pcall(function()
    type_ahead('2\rnvim-key-1234\r') -- "Use Gemini API key", then the key
    eq('end_turn', turn('Lathe who answers?'))
    eq({ all_logins }, spy.offered)
    eq({ false }, spy.with_session, 'asked at session/new, before a session was open')
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
    eq(2, #spy.offered, 'a login is asked for again')
    eq(true, spy.with_session[2], 'this time at the prompt: the session is open')
    ok(H.chat():find('Login cancelled: nothing was sent and nothing changed.', 1, true), 'the cancel is said:\n' .. H.chat())
    eq(1, #fake.prompts(), 'nothing reached the model without a login')
    eq('ready', require('lathe.client').state)
  end)
  spy.restore()
  fake.close()
  assert(good, err)
end)

it('a gateway is given its base URL and headers, typed by the person', function()
  local fake = H.fake_gemini('Through the gateway.')
  start_without_key('')
  local good, err = pcall(function()
    type_ahead('4\r' .. fake.url .. '\rAuthorization: Bearer gw-nvim; X-Team: core\r')
    eq('end_turn', turn('Lathe through the gateway'))
    local asked = fake.prompts()
    eq(1, #asked)
    eq('Bearer gw-nvim', asked[1].authorization)
    eq(nil, asked[1].key)
    ok(not H.chat():find('gw-nvim', 1, true), 'the header is not in the chat')
  end)
  fake.close()
  assert(good, err)
end)

it('Vertex AI without a key uses the project and credentials of Lathe\'s environment', function()
  local fake = H.fake_gemini('From Vertex AI.')
  local adc = vim.fn.tempname()
  H.write(adc, vim.json.encode({ type = 'authorized_user', client_id = 'c', client_secret = 's', refresh_token = 'r',
    token_uri = fake.url .. '/token' }))
  start_without_key('', { GOOGLE_CLOUD_PROJECT = 'nvim-project', GOOGLE_VERTEX_BASE_URL = fake.url,
    GOOGLE_APPLICATION_CREDENTIALS = adc })
  local good, err = pcall(function()
    type_ahead('3\r\r') -- "Vertex AI", then no key
    eq('end_turn', turn('Lathe from vertex'))
    local asked = fake.prompts()
    eq(1, #asked)
    ok(asked[1].path:find('^/v1/projects/nvim%-project/locations/us%-central1/publishers/google/models/'), asked[1].path)
    eq('Bearer access-1', asked[1].authorization)
  end)
  fake.close()
  assert(good, err)
end)

it('Log in with Google: the page Lathe sends is a question in the chat, opened on the person\'s word; the session opens once the browser is back', function()
  local fake = H.fake_gemini('Hello through Code Assist.')
  local dir = start_without_key('', { CODE_ASSIST_ENDPOINT = fake.url, LATHE_GOOGLE_TOKEN_URL = fake.url .. '/token',
    LATHE_GOOGLE_AUTH_URL = 'https://accounts.invalid/auth' })
  local opened, pages, shown = {}, 0, false
  local open = vim.ui.open
  vim.ui.open = function(url)
    opened[#opened + 1] = url
    -- The browser: Google sends it back to Lathe's loopback address with a code.
    H.http_get(H.query(url, 'redirect_uri') .. '?code=from-google&state=' .. H.query(url, 'state'), function() end)
  end
  -- The question Lathe's page brings comes while the login waits: answered here, "Open <url>".
  local select = vim.ui.select
  vim.ui.select = function(items, opts, cb)
    if type(items[1]) ~= 'string' or items[1]:sub(1, 5) ~= 'Open ' then return select(items, opts, cb) end
    pages = pages + 1
    shown = H.chat():find(items[1]:sub(6), 1, true) ~= nil
    cb(items[1], 1)
  end
  local good, err = pcall(function()
    type_ahead('1\r') -- "Log in with Google"
    eq('end_turn', turn('Lathe hello Google'))
    eq(1, pages, 'asked once whether to open the page')
    eq(1, #opened)
    ok(opened[1]:find('^https://accounts.invalid/auth%?'), opened[1])
    ok(shown, 'the address is in the chat when the person is asked')
    local asked = fake.prompts()
    eq(1, #asked)
    eq('/v1internal:streamGenerateContent?alt=sse', asked[1].path)
    eq('Bearer access-1', asked[1].authorization)
    ok(H.read(dir .. '/.gemini/oauth_creds.json'), 'the login is kept where Gemini CLI keeps it')
    ok(H.chat():find('Hello through Code Assist.', 1, true), H.chat())
  end)
  vim.ui.select = select
  vim.ui.open = open
  fake.close()
  assert(good, err)
end)

it('a login Lathe refuses is shown with its message', function()
  start_without_key('') -- no project for Vertex AI anywhere
  type_ahead('3\r\r') -- "Vertex AI", then no key
  eq('error', turn('Lathe hello'))
  ok(H.chat():find('Could not log in: .*GOOGLE_CLOUD_PROJECT'), 'Lathe\'s refusal is shown:\n' .. H.chat())
end)

it('logins parse what the person types, and authenticate gets it as Gemini CLI reads it', function()
  local login = require('lathe.login')
  eq('gateway', login.asks({ id = 'gateway', _meta = { gateway = { protocol = 'google' } } }))
  eq('key', login.asks({ id = 'gemini-api-key', _meta = { ['api-key'] = { provider = 'google' } } }))
  eq('optional_key', login.asks({ id = 'vertex-ai' }))
  eq('browser', login.asks({ id = 'oauth-personal' }))
  eq({ Authorization = 'Bearer a:b', ['X-Team'] = 'core' }, login.parse_headers('Authorization: Bearer a:b; X-Team: core'))
  eq({}, login.parse_headers(''))
  local none, why = login.parse_headers('no colon')
  eq(nil, none)
  ok(why:find('not a header'), why)
  eq({ methodId = 'vertex-ai' }, login.params({ methodId = 'vertex-ai' }))
  eq({ methodId = 'gateway', _meta = { gateway = { baseUrl = 'https://g', headers = { A = 'b' } } } },
    login.params({ methodId = 'gateway', gateway = { baseUrl = 'https://g', headers = { A = 'b' } } }))
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
