// Drives `kaizen mcp` with the official MCP TypeScript SDK client over stdio and prints one JSON
// summary of what the server answered; tests/integration/test_mcp.py checks it.
//
//   node tests/js/mcp_client.mjs KAIZEN_BIN HOME NOW
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';

const [bin, home, now] = process.argv.slice(2);
if (!bin || !home || !now) {
  console.error('usage: node mcp_client.mjs KAIZEN_BIN HOME NOW');
  process.exit(2);
}

const transport = new StdioClientTransport({
  command: bin,
  args: ['mcp', '--home', home, '--now', now],
  stderr: 'inherit',
});
const client = new Client({name: 'kaizen-integration-test', version: '1.0.0'});
await client.connect(transport);

const summary = {};
summary.serverInfo = client.getServerVersion();
summary.capabilities = client.getServerCapabilities();

const {tools} = await client.listTools();
summary.tools = tools.map((t) => t.name).sort();
const described = (t) =>
    t.inputSchema && t.inputSchema.type === 'object' && typeof t.description === 'string';
summary.toolsWithObjectSchema = tools.filter(described).length;

// Each step is named on stderr, so a failure shows where the session stopped.
const call = (name, args) => {
  console.error(`mcp_client: tools/call ${name}`);
  return client.callTool({name, arguments: args});
};
const structured = (r) => r.structuredContent ?? JSON.parse(r.content[1].text);

const work = await call('record_work', {
  workProduct: {
    type: 'code-module',
    id: 'sdk-work-1',
    version: 'v1',
    summary: 'retry wrapper for the API client',
    bubaConfidence: 0.7,
    bubaScorePrediction: 7,
    generationContext: {
      promptHash: 'p1',
      memorySnapshot: [],
      modelUsed: 'test-model',
      generationTimeMs: 1200,
      iterationCount: 1,
    },
  },
  mcpServerType: 'api-client',
  pipelineStage: 'implement',
});
summary.work = {
  isError: work.isError,
  ...structured(work)
};

const feedbackArgs = (modalId, score) => ({
  sessionId: 'sdk-session',
  modalId,
  workProduct: {id: 'sdk-work-1'},
  pipelineStage: 'implement',
  mcpServerType: 'api-client',
  reviewerId: 'jake',
  decision: {decision: 'needs-work', reason: 'no retries on timeouts'},
  scores: [{dimension: 'error-handling', score}],
  meta: {timeToDecisionMs: 15000},
});
const feedback = await call('record_feedback', feedbackArgs('sdk-modal-1', 4));
summary.feedback = {
  isError: feedback.isError,
  ...structured(feedback)
};

const refused = await call('record_feedback', feedbackArgs('sdk-modal-2', 11));
summary.refused = {
  isError: refused.isError,
  errors: structured(refused).errors,
  text: refused.content[0].text,
};

const context = await call('get_context', {
  server_type: 'api-client',
  dimensions: ['error-handling'],
  budget_tokens: 500,
});
summary.context = {
  isError: context.isError,
  text: context.content[0].text,
  keys: Object.keys(structured(context)).sort(),
};

const hints = await call('get_hints', {});
summary.hints = {
  isError: hints.isError,
  text: hints.content[0].text
};

const review = {
  task_type: 'api-client',
  artifact_id: 'sdk-work-1'
};
const first = structured(await call('should_review', review));
const second = structured(await call('should_review', review));
summary.shouldReview = [first, second];
summary.shouldCompare = structured(
    await call('should_compare', {task_type: 'api', confidence: 0.5, approaches: 1}));

const loop = await call('loop_decide', {
  iterations: [
    {
      iteration: 1,
      metrics: {test_coverage: 0.4, tests_passing: false},
      cost: 0.5,
      feedback: 'add tests'
    },
    {
      iteration: 2,
      metrics: {test_coverage: 0.4, tests_passing: false},
      cost: 0.5,
      feedback: 'add tests'
    },
  ],
});
summary.loop = {
  isError: loop.isError,
  ...structured(loop)
};

const {resources} = await client.listResources();
summary.resources = resources.map((r) => r.uri).sort();
if (resources.length > 0) {
  const uri = summary.resources[0];
  const read = await client.readResource({uri});
  summary.read = {uri, contentUri: read.contents[0].uri, length: read.contents[0].text.length};
}

summary.ping = await client.ping();

await client.close();
console.log(JSON.stringify(summary));
