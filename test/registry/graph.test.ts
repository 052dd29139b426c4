import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkSource, mermaidText, workflowMermaid } from '../../src/registry/index.js';
import type { WorkflowDefinition } from '../../src/registry/index.js';
import { MINIMAL } from './helpers.js';

function minimalWorkflow(): WorkflowDefinition {
  const checked = checkSource(MINIMAL);
  assert.ok(checked.ok);
  return checked.release.workflows[0] as WorkflowDefinition;
}

describe('workflow graph', () => {
  test('renders the minimal workflow as a Mermaid flowchart with labelled branches', () => {
    assert.equal(
      workflowMermaid(minimalWorkflow()),
      [
        'flowchart TD',
        '  s0["Set up"]',
        '  s1{"Choose a route<br/>? Deep or quick?"}',
        '  s2["Draft the report<br/>gated (1 output, 1 validator)"]',
        '  s3["Polish<br/>gated (1 output, 0 validators)"]',
        '  s4["Quick note<br/>gated (1 output, 0 validators)"]',
        '  END(["END"])',
        '  s0 --> s1',
        '  s1 -->|"route = deep"| s2',
        '  s1 -->|"route in [quick]"| s4',
        '  s2 --> s3',
        '  s3 --> END',
        '  s4 --> END',
        '  classDef gated stroke-width:3px',
        '  class s2,s3,s4 gated',
        '',
      ].join('\n'),
    );
  });

  test('labels cannot break out of their Mermaid quotes', () => {
    const workflow = minimalWorkflow();
    const hostile: WorkflowDefinition = {
      ...workflow,
      steps: workflow.steps.map((s, i) =>
        i === 0 ? { ...s, title: 'a"] --> x; click s0 "javascript:alert(1)" %% <b>' } : s,
      ),
    };
    const first = workflowMermaid(hostile).split('\n')[1] ?? '';
    assert.equal(first, '  s0["a#34;] --#62; x#59; click s0 #34;javascript:alert(1)#34; #37;#37; #60;b#62;"]');
    assert.equal(mermaidText('route = desk'), 'route = desk');
  });
});
