/**
 * A flow's shape and its Mermaid text (`rimthan runs graph`): the example flow and a flow with every kind of edge
 * (fan-out and join, a conditional edge, an error route, a `forEach` vertex), exactly; and a structural check that the
 * text is a well-formed Mermaid flowchart (no Mermaid parser is installed): every node declared once with balanced
 * quotes, every link between declared nodes, linkStyle indices naming links.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { exampleCatalog, FlowCatalog, flowMermaid, flowShape } from '../../../src/runs/index.js';
import type { FlowSpec } from '../../../src/runs/index.js';
import { resolveNext } from '../../../src/runs/flow/graph.js';
import type { JsonObject } from '../../../src/core/index.js';
import { graphShapesFlow, graphDemoFlow } from '../../console/graph-flows.js';

function catalog(): FlowCatalog {
  const c = new FlowCatalog();
  c.register(graphShapesFlow);
  c.register(graphDemoFlow);
  return c;
}

const NODE = /^ {2}([A-Za-z][A-Za-z0-9]*)(\["|\[\["|\{"|\(\["|\{\{")(.*?)("\]|"\]\]|"\}|"\]\)|"\}\})$/;
const LINK = /^ {2}([A-Za-z][A-Za-z0-9]*) (-->|-\.->|==>\|"on error"\|) ([A-Za-z][A-Za-z0-9]*)$/;

/** Checks the flowchart's structure; returns its nodes and links. */
function parseFlowchart(text: string): { nodes: Map<string, string>; links: [string, string, string][] } {
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], 'flowchart TD');
  const nodes = new Map<string, string>();
  const links: [string, string, string][] = [];
  const classes: string[] = [];
  for (const line of lines.slice(1)) {
    if (line.startsWith('  %% ')) continue;
    const node = NODE.exec(line);
    if (node !== null) {
      const [, id = '', , label = ''] = node;
      assert.ok(!nodes.has(id), `node ${id} is declared once`);
      assert.ok(!label.includes('"'), `the label of ${id} has no bare quote`);
      nodes.set(id, label);
      continue;
    }
    const link = LINK.exec(line);
    if (link !== null) {
      links.push([link[1] ?? '', link[2] ?? '', link[3] ?? '']);
      continue;
    }
    const style = /^ {2}linkStyle ([0-9,]+) \S+$/.exec(line);
    if (style !== null) {
      for (const i of (style[1] ?? '').split(',')) assert.ok(Number(i) < links.length, `linkStyle ${i} names a link`);
      continue;
    }
    if (/^ {2}classDef [A-Za-z]+ [a-z-]+:[^;]+$/.test(line)) continue;
    const cls = /^ {2}class ([A-Za-z0-9,]+) [A-Za-z]+$/.exec(line);
    assert.ok(cls !== null, `unexpected line: ${line}`);
    classes.push(...(cls[1] ?? '').split(','));
  }
  for (const [from, , to] of links) {
    assert.ok(nodes.has(from), `link from undeclared ${from}`);
    assert.ok(nodes.has(to), `link to undeclared ${to}`);
  }
  for (const c of classes) assert.ok(nodes.has(c), `class on undeclared ${c}`);
  return { nodes, links };
}

describe('flow shape and runs graph Mermaid', () => {
  test('the example flow release_notes@v1: its conditional edge declares its targets', () => {
    const def = exampleCatalog({ workspace: '/nonexistent' }).resolve('release_notes', 'v1');
    assert.ok(def !== undefined);
    const text = flowMermaid(flowShape(def));
    assert.equal(
      text,
      [
        'flowchart TD',
        '  %% release_notes@v1',
        '  START(["START"])',
        '  v0["Draft release notes<br/>id: draft_notes<br/>timeout: 60s per try"]',
        '  v1["Await approval of the draft<br/>id: await_approval"]',
        '  v2["Write CHANGELOG.md<br/>id: write_changelog<br/>retry: 3 tries, backoff 500ms<br/>timeout: 30s per try"]',
        '  END(["END"])',
        '  START --> v0',
        '  v0 --> v1',
        '  v1 -.-> v2',
        '  v1 -.-> v0',
        '  v2 --> END',
        '',
      ].join('\n'),
    );
    parseFlowchart(text);
  });

  test('a flow with fan-out, join, a conditional edge, an error route and forEach', () => {
    const def = catalog().resolve('graph_shapes', 'v1');
    assert.ok(def !== undefined);
    const shape = flowShape(def);
    const text = flowMermaid(shape);
    assert.equal(
      text,
      [
        'flowchart TD',
        '  %% graph_shapes@v1',
        '  START(["START"])',
        '  v0["Split<br/>id: split<br/>fan-out: 2 parallel branches"]',
        '  v1["Count items<br/>id: count"]',
        '  v2["Tally<br/>id: tally"]',
        '  v3["Merge<br/>id: merge<br/>join: after the barrier"]',
        '  v4["Fetch upstream<br/>id: fetch<br/>retry: 2 tries, backoff 1ms<br/>timeout: 5s per try"]',
        '  v5["Fall back<br/>id: fallback"]',
        '  v6[["Sum each item<br/>id: each<br/>forEach, at most 8 items"]]',
        '  v7["Publish<br/>id: publish"]',
        '  d3{"decision"}',
        '  END(["END"])',
        '  START --> v0',
        '  v0 --> v1',
        '  v0 --> v2',
        '  v1 --> v3',
        '  v2 --> v3',
        '  v3 -.-> d3',
        '  v4 --> v6',
        '  v4 ==>|"on error"| v5',
        '  v5 --> v6',
        '  v6 --> END',
        '  v7 --> END',
        '  linkStyle 7 stroke:#c62828,color:#c62828',
        '  classDef forEach stroke-dasharray:4 2',
        '  class v6 forEach',
        '  classDef join stroke-width:3px',
        '  class v3 join',
        '  classDef decision fill:#fff8e1',
        '  class d3 decision',
        '',
      ].join('\n'),
    );
    const { links } = parseFlowchart(text);
    assert.equal(links.filter(([from, kind]) => from === 'v0' && kind === '-->').length, 2, 'two parallel branches');
    assert.deepEqual(
      shape.vertices.filter((v) => v.fanOut || v.join || v.decision).map((v) => v.id),
      ['split', 'merge'],
    );
    assert.deepEqual(
      shape.edges.filter((e) => e.kind !== 'static'),
      [
        { from: 'merge', to: null, kind: 'conditional' },
        { from: 'fetch', to: 'fallback', kind: 'error' },
      ],
    );
    const fetch = shape.vertices.find((v) => v.id === 'fetch');
    assert.deepEqual(fetch?.retry, { attempts: 2, backoffMs: 1 });
    assert.equal(shape.vertices.find((v) => v.id === 'each')?.forEachMaxItems, 8);
  });

  test('labels cannot break out of their quotes, and the same flow gives the same text', () => {
    const c = new FlowCatalog();
    const def = c.register({
      name: 'hostile_flow',
      version: 'v"1',
      description: 'labels with quotes',
      inputSchema: { type: 'object', additionalProperties: false, properties: {} },
      graph: {
        start: 'a',
        vertices: {
          a: { label: 'say "hi"]; click a call evil()', run: () => undefined, next: 'b' },
          b: { label: '<b>bold</b> %% comment', run: () => undefined },
        },
      },
    });
    const text = flowMermaid(flowShape(def));
    assert.equal(text, flowMermaid(flowShape(def)));
    const { nodes } = parseFlowchart(text);
    assert.ok(![...nodes.values()].some((l) => /["<>%;]/.test(l.replaceAll('<br/>', '').replace(/#\d+;/g, ''))));
  });
  test('declared conditional targets are checked at registration and when the edge is taken', () => {
    const spec = (vertex: Record<string, unknown>): FlowSpec<JsonObject, JsonObject> => ({
      name: 'targets_flow',
      version: 'v1',
      description: 'declares targets',
      inputSchema: { type: 'object', additionalProperties: false, properties: {} },
      graph: {
        start: 'a',
        vertices: {
          a: { run: () => undefined, ...vertex },
          b: { run: () => undefined },
          c: { run: () => undefined },
        },
      },
    });
    const refused = (vertex: Record<string, unknown>, message: RegExp) =>
      assert.throws(() => new FlowCatalog().register(spec(vertex)), { code: 'invalid_definition', message });
    refused({ next: 'b', targets: ['b'] }, /targets needs a conditional next/);
    refused({ next: () => 'b', targets: ['x'] }, /targets names no vertex/);
    refused({ next: () => 'b', targets: [] }, /non-empty array/);
    const def = new FlowCatalog().register(spec({ next: (s: JsonObject) => s['go'], targets: ['b'] }));
    const a = def.graph.vertices.get('a');
    assert.ok(a !== undefined);
    assert.deepEqual(resolveNext(def.graph, a, { go: 'b' }), { ok: true, next: ['b'] });
    assert.deepEqual(resolveNext(def.graph, a, { go: 'c' }), { ok: false, reason: 'unknown_target' });
    assert.deepEqual(resolveNext(def.graph, a, {}), { ok: true, next: [] });
    assert.deepEqual(
      flowShape(def).edges,
      [{ from: 'a', to: 'b', kind: 'conditional' }],
      'drawn to its declared target, no decision node',
    );
  });
});
