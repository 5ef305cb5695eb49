-- Unit tests of the pure parts: framing, diff hunks, update -> transcript ->
-- chat lines, #references; no Lathe process.
local framing = require('lathe.framing')
local diff = require('lathe.diff')
local transcript = require('lathe.transcript')
local render = require('lathe.render')
local context = require('lathe.context')

local function lines_of(t)
  local out = {}
  for _, b in ipairs(t.blocks) do vim.list_extend(out, render.block(b)) end
  return out
end

it('framing splits and joins lines across chunks', function()
  local split = framing.splitter()
  eq({}, split('{"a":'))
  eq({ '{"a":1}', '{"b":2}' }, split('1}\n{"b":2}\r\n\n'))
  eq({}, split('  '))
  eq({ '{"c":3}' }, split('\n{"c":3}\n'))
end)

it('framing encodes one line, empty params as {}', function()
  local line = framing.encode({ id = 1, method = 'm', params = { text = 'a\nb' } })
  eq('\n', line:sub(-1))
  eq(nil, line:sub(1, -2):find('\n', 1, true), 'no raw newline inside')
  ok(framing.encode({ result = vim.empty_dict() }):find('"result":{}', 1, true), 'empty object')
  local good, msg = framing.decode('{"x":null,"y":[1]}')
  ok(good)
  eq(nil, msg.x, 'null decodes to nil')
  eq(false, (framing.decode('{bad')))
end)

it('diff hunks, lines and the single-span replacement', function()
  eq({ 'a', 'b' }, diff.lines('a\nb\n'))
  eq({ 'a', 'b' }, diff.lines('a\nb'))
  eq({}, diff.lines(''))
  eq({ { old_start = 2, old_count = 1, new_start = 2, new_count = 2 } }, diff.hunks('a\nb\nc\n', 'a\nB\nB2\nc\n'))
  eq({ { old_start = 0, old_count = 0, new_start = 1, new_count = 1 } }, diff.hunks('', 'new\n'))
  local first, last, repl = diff.span({ 'a', 'b', 'c', 'd' }, { 'a', 'X', 'd' })
  eq({ 1, 3, { 'X' } }, { first, last, repl })
  first, last, repl = diff.span({ 'a' }, { 'a' })
  eq({ 1, 1, {} }, { first, last, repl })
  eq({ '@@ -1 +1 @@', '-old', '+new' }, diff.unified('old\n', 'new\n'))
end)

it('updates render as a Markdown transcript', function()
  local t = transcript.new()
  t:user('fix it', { 'a.lua:1-2' })
  t:apply({ sessionUpdate = 'agent_thought_chunk', content = { type = 'text', text = 'Let me ' } })
  t:apply({ sessionUpdate = 'agent_thought_chunk', content = { type = 'text', text = 'think.' } })
  t:apply({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'Fixing ' } })
  t:apply({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'now.' } })
  t:apply({ sessionUpdate = 'tool_call', toolCallId = 'c1', title = 'Edit: a.lua', kind = 'edit', status = 'pending' })
  local changed = t:apply({ sessionUpdate = 'tool_call_update', toolCallId = 'c1', status = 'completed',
    content = { { type = 'diff', path = '/w/a.lua', oldText = 'x = 1\n', newText = 'x = 2\n' } } })
  eq({ 5 }, changed, 'an update changes only its block')
  t:apply({ sessionUpdate = 'tool_call', toolCallId = 'c2', title = 'Shell: ls', status = 'in_progress',
    content = { { type = 'content', content = { type = 'text', text = 'has ``` fence' } } } })
  t:finish('cancelled')
  eq({
    '## You', '', 'fix it', '`@a.lua:1-2`', '',
    '## Lathe', '',
    '> _Thinking_', '> Let me think.', '',
    'Fixing now.', '',
    '### Edit: a.lua', '`/w/a.lua`', '```diff', '@@ -1 +1 @@', '-x = 1', '+x = 2', '```', '',
    '### Shell: ls', '````', 'has ``` fence', '````', '',
    '_Turn ended: cancelled_', '',
  }, lines_of(t))
  eq('completed', render.status(t:tool('c1')))
end)

it('a plan is kept to be pinned, replaced by later plan updates, not a block of the log', function()
  local t = transcript.new()
  t:user('plan it')
  t:apply({ sessionUpdate = 'plan', entries = { { content = 'Read', status = 'in_progress', priority = 'high' },
    { content = 'Write', status = 'pending', priority = 'low' } } })
  t:apply({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'Reading.' } })
  t:apply({ sessionUpdate = 'plan', entries = { { content = 'Read', status = 'completed', priority = 'high' },
    { content = 'Write', status = 'in_progress', priority = 'low' } } })
  eq({ '## You', '', 'plan it', '', '## Lathe', '', 'Reading.', '' }, lines_of(t))
  eq({ '### Plan 1/2', '- [x] Read', '- [-] Write', '' }, render.plan(t.plan))
  eq({}, render.plan(nil))
  -- The write_todos card says where the plan is instead of repeating it.
  t:apply({ sessionUpdate = 'tool_call', toolCallId = 'w', title = 'Write Todos: Set 2 todo(s)', kind = 'think', status = 'completed',
    rawInput = { todos = { { description = 'Read', status = 'completed' } } },
    content = { { type = 'content', content = { type = 'text', text = '1. [completed] Read' } } } })
  local card = render.block(t:tool('w'))
  eq({ '### Write Todos: Set 2 todo(s)', '_The plan is pinned at the end of the chat, above the prompt._', '' }, card)
  -- A failed one shows its content, the error included, and claims no pinned plan.
  t:apply({ sessionUpdate = 'tool_call', toolCallId = 'f', title = 'Write Todos', kind = 'think', status = 'failed',
    rawInput = { todos = { { description = 'Read', status = 'bogus' } } },
    content = { { type = 'content', content = { type = 'text', text = 'Error: todos[0].status: bogus' } } } })
  eq({ '### Write Todos', '```', 'Error: todos[0].status: bogus', '```', '' }, render.block(t:tool('f')))
end)

it('base64 matches RFC 4648 at every padding, through vim.base64 where it exists and the fallback', function()
  local b64 = require('lathe.base64')
  for _, encode in ipairs({ b64.encode, b64.encode_plain }) do
    eq('', encode(''))
    eq('Zg==', encode('f'))
    eq('Zm8=', encode('fo'))
    eq('Zm9v', encode('foo'))
    eq('Zm9vYmFy', encode('foobar'))
    eq('AP8Q', encode('\0\255\16'))
  end
  if vim.base64 then
    local used
    local original = vim.base64.encode
    vim.base64.encode = function(d) used = true; return original(d) end
    b64.encode('x')
    vim.base64.encode = original
    eq(true, used, 'Neovim\'s own encoder where it exists')
  end
end)

it('a changed file is listed with its counts and how to decide', function()
  local lines = render.block({ kind = 'changes', files = { { rel = 'a.txt', added = 2, removed = 1 }, { rel = 'b.txt', added = 1, removed = 0, decided = 'kept' } },
    keep_key = ',a', undo_key = ',r' })
  eq('### Changed files', lines[1])
  eq('- `a.txt` +2 -1', lines[2])
  eq('- `b.txt` +1 -0 · kept', lines[3])
  eq('_On a file: ,a keeps · ,r undoes · :LatheKeep / :LatheUndo_', lines[4], 'the keys given, no config read')
end)

it('replayed user messages (session/load) render as the person\'s turns', function()
  local t = transcript.new()
  t:apply({ sessionUpdate = 'user_message_chunk', content = { type = 'text', text = 'earlier question' } })
  t:apply({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'earlier answer' } })
  t:apply({ sessionUpdate = 'user_message_chunk', content = { type = 'text', text = 'second' } })
  eq({ '## You', '', 'earlier question', '', '## Lathe', '', 'earlier answer', '', '## You', '', 'second', '' }, lines_of(t))
end)

it('#references name open buffers', function()
  local cands = { { buf = 11, rel = 'src/a.lua', tail = 'a.lua' }, { buf = 12, rel = 'b.md', tail = 'b.md' } }
  eq({ 11 }, context.references('look at #a.lua.', 7, cands))
  eq({ 12, 11 }, context.references('#b.md and #src/a.lua', 7, cands))
  eq({ 7 }, context.references('fix #buffer', 7, cands))
  eq({ 11, 12 }, context.references('all #buffers please', 7, cands))
  eq({}, context.references('issue #42 and #unknown', 7, cands))
end)

it('usage reads short', function()
  eq('15/1.0M tokens', render.usage({ used = 15, size = 1048576 }))
  eq('12.3k/200.0k tokens', render.usage({ used = 12345, size = 200000 }))
  eq(nil, render.usage(nil))
end)

it('a sub-agent is quoted under the call that started it, with its state, task and calls', function()
  local t = transcript.new()
  t:apply({ sessionUpdate = 'tool_call', toolCallId = 'call_1', title = 'Invoke Subagent: generalist', status = 'in_progress' })
  local changed = t:apply({ sessionUpdate = 'subagent_update', sessionId = 's.call_1', title = 'Generalist Agent',
    description = 'run the checks', capabilities = { cancel = vim.empty_dict() }, state = { state = 'running' },
    _meta = { lathe = { toolCallId = 'call_1' } } })
  local _, parent = t:tool('call_1')
  eq({ parent }, changed)
  eq({ parent }, t:child_apply('s.call_1', { sessionUpdate = 'session_message_chunk', messageId = 'm', content = { type = 'text', text = 'run the checks' } }))
  t:child_apply('s.call_1', { sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'Running make.' } })
  t:child_apply('s.call_1', { sessionUpdate = 'tool_call', toolCallId = 'call_1', title = 'Shell: make', status = 'pending' })
  t:child_awaiting('s.call_1', 'call_1', 'Waiting for your answer')
  eq({}, t:child_apply('other', { sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'x' } }))
  eq({ 'heading', 'tool' }, vim.tbl_map(function(b) return b.kind end, t.blocks), "the child's blocks stay out of the chat's own")
  eq(1, #t:stoppable())
  local text = table.concat(render.block(t.blocks[parent]), '\n')
  ok(text:find('> ↳ **Generalist Agent** · working · _:LatheStopAgent stops it_', 1, true), text)
  ok(text:find('> **Task**\n>\n> run the checks', 1, true), 'the task from the parent: ' .. text)
  ok(text:find('> Running make.', 1, true), text)
  ok(text:find('> #### Shell: make · pending', 1, true), text)
  ok(text:find('> _Waiting for your answer_', 1, true), text)
  ok(not text:find('## Lathe', 1, true), 'no heading inside the child: ' .. text)
  t:apply({ sessionUpdate = 'subagent_update', sessionId = 's.call_1', state = { state = 'idle', stopReason = 'max_turn_requests' } })
  eq(0, #t:stoppable())
  text = table.concat(render.block(t.blocks[parent]), '\n')
  ok(text:find('· stopped at a limit (max_turn_requests)', 1, true), text)
  ok(not text:find('LatheStopAgent', 1, true), 'no stop once it ended')
end)

it('after a reload a sub-agent still running shows as no longer running', function()
  local t = transcript.new()
  t:apply({ sessionUpdate = 'subagent_update', sessionId = 's.c', title = 'Investigator', capabilities = { cancel = vim.empty_dict() }, state = { state = 'running' } })
  local b, idx = t:tool('subagent:s.c')
  eq('Investigator', b.child.title, 'a block of its own when no call is named')
  eq({ idx }, t:stale_children())
  eq('unknown', b.child.state)
  eq(false, b.child.can_stop)
  ok(table.concat(render.block(b), '\n'):find('no longer running', 1, true))
end)

it('a hook\'s decision shows on the tool call it touched, once', function()
  local t = transcript.new()
  local text = 'Hook guard (BeforeTool) blocked: no writes here'
  t:apply({ sessionUpdate = 'tool_call', toolCallId = 'c1', title = 'WriteFile: x.txt', status = 'pending' })
  t:apply({ sessionUpdate = 'tool_call_update', toolCallId = 'c1', status = 'failed',
    content = { { type = 'content', content = { type = 'text', text = 'Tool execution blocked: no writes here' } },
                { type = 'content', content = { type = 'text', text = text } } },
    _meta = { lathe = { hooks = { { hook = 'guard', event = 'BeforeTool', decision = 'blocked', message = 'no writes here', text = text } } } } })
  local out = table.concat(lines_of(t), '\n')
  ok(out:find('> **Hook guard** (BeforeTool) blocked: no writes here', 1, true), out)
  ok(out:find('Tool execution blocked: no writes here', 1, true), out)
  ok(not out:find(text, 1, true), 'the note is not repeated among the output:\n' .. out)
  -- A later update without _meta keeps the notes; other agents' _meta is not a note.
  t:apply({ sessionUpdate = 'tool_call_update', toolCallId = 'c1', title = 'WriteFile: x.txt' })
  ok(table.concat(lines_of(t), '\n'):find('**Hook guard**', 1, true))
  t:apply({ sessionUpdate = 'tool_call', toolCallId = 'c2', title = 'Other', _meta = { other = true } })
  eq(nil, t:tool('c2').hooks)
end)

it('a question form: its fields from the schema, what the person gave checked and typed', function()
  local question = require('lathe.question')
  local fields = question.fields({ type = 'object', required = { 'q1' }, properties = {
    q1 = { type = 'string', title = 'Auth', description = 'Which login?', oneOf = { { const = 'OAuth', title = 'OAuth — standard' } } },
    q1_other = { type = 'string', title = 'Auth: your own answer' },
    n = { type = 'integer', title = 'Count', minimum = 1, maximum = 5 },
    fish = { type = 'array', title = 'Fish', items = { anyOf = { { const = 'f1', title = 'Tuna' }, { const = 'f2', title = 'Salmon' } } } },
    ok = { type = 'boolean', title = 'Agree' },
  } })
  eq({ 'fish', 'n', 'ok', 'q1', 'q1_other' }, vim.tbl_map(function(f) return f.name end, fields))
  eq({ 'multi', 'integer', 'boolean', 'choice', 'text' }, vim.tbl_map(function(f) return f.type end, fields))
  local _, missing = question.content(fields, {})
  eq('Auth: an answer is needed', missing)
  local _, big = question.content(fields, { q1 = 'OAuth', n = '9' })
  eq('Count: at most 5', big)
  local content = question.content(fields, { q1 = 'OAuth', q1_other = '', n = '3', fish = { 'f2' }, ok = false })
  eq({ q1 = 'OAuth', n = 3, fish = { 'f2' }, ok = false }, content)
  eq('Fish: Salmon · Count: 3 · Agree: false · Auth: OAuth — standard', question.summary(fields, content))
end)

it('chunks of another message start a new block; notices, compactions and the cost render', function()
  local t = transcript.new()
  t:apply({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'One ' }, messageId = 'm1' })
  t:apply({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'reply.' }, messageId = 'm1' })
  t:apply({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'A note.' }, messageId = 'm2' })
  t:apply({ sessionUpdate = 'notice', severity = 'warning', title = 'Loop detected', description = 'the same call' })
  t:apply({ sessionUpdate = 'compaction_update', compactionId = 'c1', status = 'in_progress' })
  t:apply({ sessionUpdate = 'compaction_summary_chunk', compactionId = 'c1', content = { type = 'text', text = 'kept this' } })
  t:apply({ sessionUpdate = 'compaction_update', compactionId = 'c1', status = 'completed' })
  eq({ '## Lathe', '', 'One reply.', '', 'A note.', '', '_⚠ Loop detected: the same call_', '',
    '### Conversation compacted', '> kept this', '' }, lines_of(t))
  eq('1.2k/1.0M tokens · $0.0019', render.usage({ used = 1240, size = 1048576, cost = { amount = 0.0019, currency = 'USD' } }))
  eq('10/100 tokens · 12.50 EUR', render.usage({ used = 10, size = 100, cost = { amount = 12.5, currency = 'EUR' } }))
  eq('10/100 tokens', render.usage({ used = 10, size = 100 }))
end)

it('a prompt queued behind the running turn is pinned as queued, then becomes the message, its echo not repeated', function()
  local t = transcript.new()
  t:user('first')
  t:apply({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'Working.' } })
  local second = t:queue_prompt('then say hi', { 'a.lua:1-2' })
  local third = t:queue_prompt('and bye')
  eq({ '## You · queued', '', 'then say hi', '`@a.lua:1-2`', '_Sent when the running turn ends; a cancel drops it_', '',
    '## You · queued', '', 'and bye', '_Sent when the running turn ends; a cancel drops it_', '' }, render.queued(t.queue))
  eq(3, #t.blocks, 'queued prompts are not blocks of the log')
  eq({ 4 }, t:start_queued(second))
  eq({}, t:apply({ sessionUpdate = 'user_message_chunk', content = { type = 'text', text = 'then say hi' }, messageId = 'u2' }),
    "Lathe's echo of the started prompt")
  t:apply({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'Hi.' } })
  eq({ '## You', '', 'first', '', '## Lathe', '', 'Working.', '', '## You', '', 'then say hi', '`@a.lua:1-2`', '',
    '## Lathe', '', 'Hi.', '' }, lines_of(t))
  eq(1, #t.queue)
  t:drop_queued(third)
  eq({}, render.queued(t.queue), 'a dropped prompt goes')
  eq({}, t:start_queued(third), 'and never starts')
  -- Once the turn answered, a user message is the person's again (a replay, steering that started a turn).
  t:apply({ sessionUpdate = 'user_message_chunk', content = { type = 'text', text = 'then say hi' } })
  eq('user', t.blocks[#t.blocks].kind)
end)

it("a shell call's terminal output streams into its block, with where it ran and how it ended", function()
  local t = transcript.new()
  t:apply({ sessionUpdate = 'tool_call', toolCallId = 's1', title = 'Shell: make', kind = 'execute', status = 'pending' })
  t:apply({ sessionUpdate = 'tool_call_update', toolCallId = 's1', status = 'in_progress',
    content = { { type = 'terminal', terminalId = 's1' } }, _meta = { terminal_info = { terminal_id = 's1', cwd = '/w' } } })
  eq({ '## Lathe', '', '### Shell: make', '_in `/w`_', '_running…_', '' }, lines_of(t))
  t:apply({ sessionUpdate = 'tool_call_update', toolCallId = 's1',
    _meta = { terminal_output = { terminal_id = 's1', data = '\27[32mhel' } } })
  t:apply({ sessionUpdate = 'tool_call_update', toolCallId = 's1',
    _meta = { terminal_output = { terminal_id = 's1', data = 'lo\27[0m\r\n50%\r100%\nworld\n' } } })
  eq({ '## Lathe', '', '### Shell: make', '_in `/w`_', '```', 'hello', '100%', 'world', '```', '_running…_', '' }, lines_of(t))
  t:apply({ sessionUpdate = 'tool_call_update', toolCallId = 's1', status = 'completed',
    content = { { type = 'terminal', terminalId = 's1' }, { type = 'content', content = { type = 'text', text = 'Exit Code: 3' } } },
    _meta = { terminal_exit = { terminal_id = 's1', exit_code = 3, signal = vim.NIL }, lathe = { hooks = {} } } })
  eq({ '## Lathe', '', '### Shell: make', '_in `/w`_', '```', 'hello', '100%', 'world', '```', '_exit code 3_',
    '```', 'Exit Code: 3', '```', '' }, lines_of(t))
  t:apply({ sessionUpdate = 'tool_call_update', toolCallId = 's1', _meta = { terminal_exit = { terminal_id = 's1', signal = 'SIGKILL' } } })
  ok(vim.tbl_contains(lines_of(t), '_killed by SIGKILL_'), vim.inspect(lines_of(t)))
  -- An editor terminal Lathe only names (terminal/create) reads as before.
  t:apply({ sessionUpdate = 'tool_call', toolCallId = 's2', title = 'Shell: ls', content = { { type = 'terminal', terminalId = 'term-1' } } })
  ok(vim.tbl_contains(lines_of(t), '_terminal term-1_'), vim.inspect(lines_of(t)))
end)

it('the plan a mode switch asks about reads as Markdown and stays above its outcome', function()
  local t = transcript.new()
  t:apply({ sessionUpdate = 'tool_call', toolCallId = 'p1', title = 'Approve the plan /s/plans/x.md', kind = 'switch_mode', status = 'pending' })
  t:apply({ sessionUpdate = 'tool_call_update', toolCallId = 'p1', asked = true, content = {
    { type = 'content', content = { type = 'text', text = '# Plan\n\n1. Change src.txt\n' } },
    { type = 'content', content = { type = 'text', text = 'The plan is /s/plans/x.md. Carry it out now?' } } } })
  local asked = { '## Lathe', '', '### Approve the plan /s/plans/x.md', '> # Plan', '>', '> 1. Change src.txt', '>',
    '> The plan is /s/plans/x.md. Carry it out now?' }
  eq(vim.list_extend(vim.deepcopy(asked), { '' }), lines_of(t))
  t:apply({ sessionUpdate = 'tool_call_update', toolCallId = 'p1', status = 'completed',
    content = { { type = 'content', content = { type = 'text', text = 'Plan approved (autoEdit mode): /s/plans/x.md' } } } })
  eq(vim.list_extend(vim.deepcopy(asked), { '>', '> Plan approved (autoEdit mode): /s/plans/x.md', '' }), lines_of(t))
end)

it('text added to the running turn shows as the person\'s, marked so', function()
  local t = transcript.new()
  t:steered('use tabs')
  eq({ '## You (added to the running turn)', '', 'use tabs', '' }, lines_of(t))
end)
