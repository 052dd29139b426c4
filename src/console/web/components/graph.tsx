/**
 * A graph drawn by dagre (top to bottom) as SVG: `DagreGraph` draws any boxes and arrows (a run's flow graph uses it
 * too), `WorkflowGraph` a release workflow with it. Gated steps have a heavy border and say what they wait for,
 * branching steps show their question and label their edges with the predicate, terminal steps lead to END. A step is
 * a button: click or Enter selects it. `current` and `done` mark a session's position.
 */
import dagre from '@dagrejs/dagre';
import type { GraphView } from '../../api-types.js';

const END = '\u0000end';
const CHAR = 7.4;
const LINE = 17;

interface Box {
  readonly id: string;
  readonly lines: readonly Line[];
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Wraps `text` at word boundaries into lines of at most `width` characters, at most `max` lines. */
export function wrap(text: string, width: number, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  if (lines.length > max) {
    const kept = lines.slice(0, max);
    kept[max - 1] = `${(kept[max - 1] ?? '').slice(0, width - 1)}…`;
    return kept;
  }
  return lines;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export interface Line {
  readonly text: string;
  readonly kind: 'title' | 'detail' | 'question';
}

function nodeLines(node: GraphView['nodes'][number]): Line[] {
  const lines: Line[] = wrap(node.title, 30, 2).map((text) => ({ text, kind: 'title' }));
  if (node.gated) {
    lines.push({
      text: `gated: ${plural(node.outputs, 'output')}, ${plural(node.validators, 'validator')}`,
      kind: 'detail',
    });
  }
  if (node.question !== undefined) {
    lines.push(...wrap(`? ${node.question}`, 34, 3).map((text): Line => ({ text, kind: 'question' })));
  }
  return lines;
}

/** A box to draw: its text lines, CSS classes, corner radius and the attributes that name it. */
export interface DrawNode {
  readonly id: string;
  readonly lines: readonly Line[];
  readonly classes: readonly string[];
  readonly rounded: number;
  readonly ariaLabel: string;
  /** Attributes of the node's group (data-*), e.g. `data-step`. */
  readonly attrs: Readonly<Record<string, string>>;
  readonly onSelect?: () => void;
}

/** An arrow; `to` null leads to END, `className` styles it (e.g. `error`, `conditional`). */
export interface DrawEdge {
  readonly from: string;
  readonly to: string | null;
  readonly label?: string;
  readonly className?: string;
}

interface Drawn {
  readonly points: { x: number; y: number }[];
  readonly label?: string;
  readonly className?: string;
  readonly lx: number;
  readonly ly: number;
}

function layout(
  nodes: readonly DrawNode[],
  drawEdges: readonly DrawEdge[],
): { boxes: Box[]; edges: Drawn[]; width: number; height: number } {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 40, ranksep: 56, edgesep: 20, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  const lines = new Map<string, readonly Line[]>();
  for (const node of nodes) {
    lines.set(node.id, node.lines);
    const longest = Math.max(...node.lines.map((l) => l.text.length));
    g.setNode(node.id, { width: Math.max(150, longest * CHAR + 28), height: node.lines.length * LINE + 22 });
  }
  if (drawEdges.some((e) => e.to === null)) {
    lines.set(END, [{ text: 'END', kind: 'title' }]);
    g.setNode(END, { width: 70, height: 30 });
  }
  drawEdges.forEach((edge, i) => {
    const label = edge.label;
    g.setEdge(
      edge.from,
      edge.to ?? END,
      {
        ...(label === undefined ? {} : { label, width: label.length * 6.8 + 12, height: 18, labelpos: 'c' }),
        ...(edge.className === undefined ? {} : { className: edge.className }),
      },
      `e${i}`,
    );
  });
  dagre.layout(g);
  const boxes = g.nodes().map((id) => {
    const n = g.node(id) as { x: number; y: number; width: number; height: number };
    return { id, lines: lines.get(id) ?? [], x: n.x, y: n.y, width: n.width, height: n.height };
  });
  const edges = g.edges().map((e) => {
    const label = g.edge(e) as {
      points?: { x: number; y: number }[];
      label?: string;
      className?: string;
      x?: number;
      y?: number;
    };
    return {
      points: label.points ?? [],
      ...(label.label === undefined ? {} : { label: label.label }),
      ...(label.className === undefined ? {} : { className: label.className }),
      lx: label.x ?? 0,
      ly: label.y ?? 0,
    };
  });
  const size = g.graph() as { width?: number; height?: number };
  return { boxes, edges, width: size.width ?? 0, height: size.height ?? 0 };
}

/** Lays out `nodes` and `edges` with dagre (top to bottom) and draws them as SVG; shared by every graph the console shows. */
export function DagreGraph(props: {
  readonly nodes: readonly DrawNode[];
  readonly edges: readonly DrawEdge[];
  readonly label: string;
}) {
  const { boxes, edges, width, height } = layout(props.nodes, props.edges);
  const nodes = new Map(props.nodes.map((n) => [n.id, n]));
  return (
    <svg
      class="graph"
      viewBox={`0 0 ${Math.ceil(width)} ${Math.ceil(height)}`}
      width={Math.ceil(width)}
      height={Math.ceil(height)}
      role="img"
      aria-label={props.label}
    >
      <defs>
        <marker
          id="arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
        </marker>
      </defs>
      {edges.map((e, i) => (
        <g key={`e${i}`} class={e.className === undefined ? 'edge' : `edge ${e.className}`}>
          <path
            d={e.points.map((p, j) => `${j === 0 ? 'M' : 'L'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ')}
            marker-end="url(#arrow)"
          />
          {e.label !== undefined && (
            <g class="edge-label">
              <rect
                x={e.lx - (e.label.length * 6.8 + 12) / 2}
                y={e.ly - 9}
                width={e.label.length * 6.8 + 12}
                height={18}
                rx={4}
              />
              <text x={e.lx} y={e.ly + 4}>
                {e.label}
              </text>
            </g>
          )}
        </g>
      ))}
      {boxes.map((b) => {
        const node = nodes.get(b.id);
        if (node === undefined) {
          return (
            <g key={b.id} class="node end">
              <rect x={b.x - b.width / 2} y={b.y - b.height / 2} width={b.width} height={b.height} rx={b.height / 2} />
              <text x={b.x} y={b.y + 4}>
                END
              </text>
            </g>
          );
        }
        const select = (): void => node.onSelect?.();
        const top = b.y - b.height / 2;
        return (
          <g
            key={b.id}
            class={node.classes.join(' ')}
            {...node.attrs}
            role="button"
            tabIndex={0}
            aria-label={node.ariaLabel}
            onClick={select}
            onKeyDown={(event: KeyboardEvent) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                select();
              }
            }}
          >
            <rect x={b.x - b.width / 2} y={top} width={b.width} height={b.height} rx={node.rounded} />
            {b.lines.map((line, i) => (
              <text key={i} x={b.x} y={top + 18 + i * LINE} class={line.kind}>
                {line.text}
              </text>
            ))}
          </g>
        );
      })}
    </svg>
  );
}

export interface GraphProps {
  readonly graph: GraphView;
  readonly selected?: string | undefined;
  readonly current?: string | null | undefined;
  readonly done?: readonly string[];
  readonly onSelect?: (stepId: string) => void;
  readonly label: string;
}

export function WorkflowGraph(props: GraphProps) {
  const done = new Set(props.done ?? []);
  const nodes = props.graph.nodes.map((node): DrawNode => {
    const classes = ['node', 'step'];
    if (node.gated) classes.push('gated');
    if (node.branching) classes.push('branching');
    if (done.has(node.id)) classes.push('done');
    if (props.current === node.id) classes.push('current');
    if (props.selected === node.id) classes.push('selected');
    const onSelect = props.onSelect;
    return {
      id: node.id,
      lines: nodeLines(node),
      classes,
      rounded: node.branching ? 14 : 6,
      ariaLabel: `${node.title}${props.current === node.id ? ' (current step)' : ''}`,
      attrs: { 'data-step': node.id },
      ...(onSelect === undefined ? {} : { onSelect: () => onSelect(node.id) }),
    };
  });
  return <DagreGraph nodes={nodes} edges={props.graph.edges} label={props.label} />;
}
