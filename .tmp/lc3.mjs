import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { validate } from '@cfworker/json-schema';
import fc from 'fast-check';
const client = new MultiServerMCPClient({ mcpServers: { r: { transport: 'stdio', command: process.execPath, args: ['dist/src/cli/main.js', 'serve'], env: { PATH: process.env.PATH, HOME: '/work/wt/handoff/.tmp/h', XDG_STATE_HOME: '/work/wt/handoff/.tmp/h' } } } });
const tools = await client.getTools();
for (const t of tools) {
  const s = t.schema.properties.confirmed_state;
  console.log(t.name, JSON.stringify(s.properties.state.additionalProperties));
  let bad = 0;
  fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }), (v) => { const r = validate({ state: { objective: 'o', f: v }, confirmations: {} }, s); if (!r.valid && bad++ < 3) console.log(JSON.stringify(v), JSON.stringify(r.errors.slice(0,2))); return true; }), { numRuns: 2000 });
  console.log('bad', bad);
}
await client.close();
