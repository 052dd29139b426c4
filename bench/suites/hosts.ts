/**
 * `npm run bench -- hosts`: the real, pinned Claude Code and Codex CLIs take the packaged research-decision workflow
 * by desk research over stdio to `completed` (one failed report repaired, validators as the host's subagents), driven
 * by the host tests' scripted model (test/system/hosts), once against this build and once against an earlier build of
 * Rimthan from Git (`--baseline=REV`, default the main of 2026-12-04 before the host work), in the same run. Per host:
 * the Rimthan tool definitions as the host sent them to the model, the Rimthan results the model read (the person's
 * agent alone, and with its validator subagents), every byte the host sent the model over the run, the model turns, the
 * protocol revision negotiated, and how long the server took to answer the host's first message.
 */
import { fmt } from '../format.js';
import type { Figure, Suite, SuiteContext } from '../model.js';
import { buildRevision } from '../baselines/previous-build.js';
import { withTempFolder } from '../tmp.js';
import { DESK_ROUTE } from '../../test/system/hosts/scenarios/billing-queue.js';
import { CLAUDE_CODE, CODEX } from '../../test/system/hosts/support/host-profiles.js';
import type { HostProfile } from '../../test/system/hosts/support/host-profiles.js';
import { HostWorld } from '../../test/system/hosts/support/host-world.js';
import type { RunFigures } from '../../test/system/hosts/support/run-figures.js';
import { negotiation } from '../../test/system/hosts/support/tap-log.js';

/** main as the real hosts first tried it (2026-12-04), before tool views, digest-bound tokens and the fast start. */
const DEFAULT_BASELINE = 'bb92a07';

interface Measured {
  readonly figures: RunFigures;
  readonly protocol: string;
  readonly firstAnswerMs: number | undefined;
}

async function measure(host: HostProfile, main?: string): Promise<Measured> {
  const world = new HostWorld(host);
  try {
    const { run, figures } = await world.research(DESK_ROUTE, 'stdio', main);
    const opened = negotiation(run.tap);
    return { figures, protocol: opened.protocol ?? 'unknown', firstAnswerMs: opened.firstAnswerMs };
  } finally {
    await world.close();
  }
}

const KB = (bytes: number): number => bytes / 1024;

function sizeFigure(
  name: string,
  now: number,
  before: number,
  unit: string,
  aim?: { text: string; max: number },
): Figure {
  return {
    name,
    rimthan: { value: now, unit },
    baseline: { label: 'earlier build', quantity: { value: before, unit } },
    ratio: { value: now / before, text: `${fmt((100 * now) / before)}% of the earlier build` },
    ...(aim === undefined ? {} : { aim: { text: aim.text, met: now <= aim.max } }),
  };
}

function hostFigures(host: string, now: Measured, before: Measured): Figure[] {
  const n = now.figures;
  const b = before.figures;
  return [
    sizeFigure(
      `${host}: Rimthan tool definitions as sent`,
      KB(n.toolDefinitionBytes),
      KB(b.toolDefinitionBytes),
      'KB',
      {
        text: '≤ 17 KB',
        max: 17,
      },
    ),
    sizeFigure(`${host}: Rimthan results the agent read`, KB(n.mainResultBytes), KB(b.mainResultBytes), 'KB', {
      text: '≤ 69 KB',
      max: 69,
    }),
    sizeFigure(`${host}: Rimthan results read, subagents included`, KB(n.resultBytes), KB(b.resultBytes), 'KB'),
    sizeFigure(`${host}: bytes sent to the model`, n.requestBytes / 1e6, b.requestBytes / 1e6, 'MB', {
      text: '≤ half of the earlier build',
      max: b.requestBytes / 2e6,
    }),
    sizeFigure(`${host}: model turns`, n.turns, b.turns, 'turns'),
    ...(now.firstAnswerMs === undefined || before.firstAnswerMs === undefined
      ? []
      : [
          {
            ...sizeFigure(`${host}: first stdio answer`, now.firstAnswerMs, before.firstAnswerMs, 'ms', {
              text: '≤ 1,000 ms',
              max: 1000,
            }),
            note: `protocol ${now.protocol} (earlier build: ${before.protocol})`,
          },
        ]),
  ];
}

export const suite: Suite = {
  name: 'hosts',
  description: 'the real Claude Code and Codex through research-decision, against an earlier build',
  async run(ctx: SuiteContext) {
    const hosts = [CLAUDE_CODE, CODEX].filter((h) => ctx.parts === undefined || ctx.parts.has(h.name));
    const installed = hosts.filter((h) => h.binary() !== undefined);
    if (installed.length === 0) return { figures: [], notes: [], skipped: 'no pinned host CLI is installed (npm ci)' };
    const revision = ctx.baseline ?? DEFAULT_BASELINE;
    return withTempFolder('hosts', async (folder) => {
      ctx.progress(`building the baseline ${revision}`);
      const previous = buildRevision(revision, folder.file('baseline'));
      const figures: Figure[] = [];
      const notes = [`baseline: Rimthan at ${previous.revision}, built in this run`];
      for (const host of installed) {
        const version = host.binary()?.version ?? '?';
        ctx.progress(`${host.name} ${version}: this build`);
        const now = await measure(host);
        ctx.progress(`${host.name} ${version}: the baseline`);
        const before = await measure(host, previous.main);
        figures.push(...hostFigures(`${host.name} ${version}`, now, before));
      }
      notes.push(
        'Route: desk research over stdio, one failed evidence-quality report repaired, three validators as subagents.',
        'The model is the host tests scripted model: the same decisions against both builds, from what the host showed.',
      );
      return { figures, notes };
    });
  },
};
