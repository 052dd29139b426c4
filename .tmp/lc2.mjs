import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { validate } from '@cfworker/json-schema';
const client = new MultiServerMCPClient({ mcpServers: { r: { transport: 'stdio', command: process.execPath, args: ['dist/src/cli/main.js', 'serve'], env: { PATH: process.env.PATH, HOME: '/work/wt/handoff/.tmp/h', XDG_STATE_HOME: '/work/wt/handoff/.tmp/h' } } } });
const tools = await client.getTools();
const vals = ['x', 1, 1.5, true, false, null, [], ['a'], [1, 'a'], {}, { a: 1 }, { a: { b: [1, null] } }, [[['x']]], { a: { b: { c: 'd' } } }, [{a:1}], {a:[{b:[1]}]}];
for (const t of tools) {
  const s = t.schema.properties.confirmed_state;
  if (t.name.includes('start')) console.log(JSON.stringify(s.properties.state, null, 0).slice(0, 3000));
  for (const v of vals) {
    const r = validate({ state: { objective: 'o', f: v }, confirmations: {} }, s);
    if (!r.valid) console.log(t.name, JSON.stringify(v), r.valid, r.valid ? '' : JSON.stringify(r.errors.slice(0, 3)));
  }
}
await client.close();
