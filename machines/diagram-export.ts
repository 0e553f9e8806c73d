/**
 * Diagrams generated from the machines themselves (never drawn by hand): Mermaid
 * stateDiagram-v2, Graphviz DOT and a JSON edge list, all from `toDirectedGraph`. No maintained
 * package converts XState v5 machines (xstate-notes §3.2), so this walk is ours. Pure.
 */
import { toDirectedGraph, type DirectedGraphNode } from 'xstate/graph';

type Graphable = Parameters<typeof toDirectedGraph>[0];
type Edge = DirectedGraphNode['edges'][number];

const nodeId = (id: string): string => id.replace(/\W/g, '_');

function guardName(guard: unknown): string {
  if (!guard) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'guard';
}

/** Event (and guard) of an edge, without the characters Mermaid treats as syntax. */
export function edgeLabel(e: Edge): string {
  const t = e.transition;
  const ev = t.eventType.startsWith('xstate.after.') ? `after ${t.eventType.split('.')[2]}` : t.eventType;
  const short = ev.replace(/^xstate\.(done|error)\.actor\..*/, (_m: string, kind: string) => (kind === 'done' ? 'done' : 'error'));
  const g = guardName(t.guard);
  return (short === '' ? 'always' : short) + (g ? ` [${g}]` : '');
}

const sanitize = (s: string): string => s.replace(/[:;]/g, ' ').replace(/"/g, "'");

/** A state's name with the tags that give it its meaning (contract/vocabulary.ts): `blocked (blocked)`. */
function stateLabel(n: DirectedGraphNode): string {
  const tags = n.stateNode.tags;
  return tags.length ? `${n.stateNode.key} (${tags.join(', ')})` : n.stateNode.key;
}

function walk(n: DirectedGraphNode, visit: (n: DirectedGraphNode) => void): void {
  visit(n);
  for (const c of n.children) walk(c, visit);
}

/** Targetless transitions (update context, answer a command) change no state: not drawn. */
const changesState = (e: Edge): boolean => Array.isArray(e.transition.target) && e.transition.target.length > 0;

interface Line { source: string; target: string; label: string }

/**
 * State-changing edges, plus eventless (`always`) ones, which toDirectedGraph leaves out.
 * Edges declared on the root apply in every state; they are drawn from the root's own node.
 */
function edgesOf(root: DirectedGraphNode): Line[] {
  const all: Line[] = [];
  walk(root, (n) => {
    for (const e of n.edges.filter(changesState)) all.push({ source: e.source.id, target: e.target.id, label: edgeLabel(e) });
    for (const t of n.stateNode.always ?? []) {
      for (const target of t.target ?? []) {
        const g = guardName(t.guard);
        all.push({ source: n.id, target: target.id, label: 'always' + (g ? ` [${g}]` : '') });
      }
    }
  });
  return all;
}

/** Events a leaf state handles without changing state (commands, context updates). */
function quietEvents(n: DirectedGraphNode): string[] {
  const names = new Set<string>();
  for (const e of n.edges) if (!changesState(e)) names.add(edgeLabel(e).split(' ')[0]!);
  return [...names];
}

export function toMermaid(machine: Graphable): string {
  const out = ['stateDiagram-v2'];
  const emit = (n: DirectedGraphNode, pad: string) => {
    const first = n.stateNode.initial?.target?.[0];
    if (first) out.push(`${pad}[*] --> ${nodeId(first.id)}`);
    for (const c of n.children) {
      if (c.children.length) {
        out.push(`${pad}state ${nodeId(c.id)} {`);
        emit(c, pad + '  ');
        out.push(`${pad}}`);
      } else {
        out.push(`${pad}${nodeId(c.id)} : ${stateLabel(c)}`);
      }
      if (c.stateNode.type === 'final') out.push(`${pad}${nodeId(c.id)} --> [*]`);
    }
  };
  const root = toDirectedGraph(machine);
  emit(root, '  ');
  // Edges after all states, so a transition into a composite state never declares it early.
  for (const e of edgesOf(root)) out.push(`  ${nodeId(e.source)} --> ${nodeId(e.target)} : ${sanitize(e.label)}`);
  walk(root, (n) => {
    const quiet = n.children.length === 0 ? quietEvents(n) : [];
    if (quiet.length) out.push(`  note right of ${nodeId(n.id)} : handles ${quiet.join(', ')}`);
  });
  return out.join('\n') + '\n';
}

export function toDot(machine: Graphable): string {
  const root = toDirectedGraph(machine);
  const out = [`digraph ${nodeId(root.id)} {`, '  compound=true;', '  node [shape=box, style=rounded];'];
  const emit = (n: DirectedGraphNode, pad: string) => {
    for (const c of n.children) {
      if (c.children.length) {
        out.push(`${pad}subgraph cluster_${nodeId(c.id)} {`, `${pad}  label="${c.stateNode.key}";`);
        out.push(`${pad}  ${nodeId(c.id)} [label="${c.stateNode.key}", shape=point];`);
        emit(c, pad + '  ');
        out.push(`${pad}}`);
      } else {
        const shape = c.stateNode.type === 'final' ? ', peripheries=2' : '';
        out.push(`${pad}${nodeId(c.id)} [label="${stateLabel(c)}"${shape}];`);
      }
    }
  };
  emit(root, '  ');
  for (const e of edgesOf(root)) out.push(`  ${nodeId(e.source)} -> ${nodeId(e.target)} [label="${sanitize(e.label)}"];`);
  out.push('}');
  return out.join('\n') + '\n';
}

export interface DiagramJson {
  id: string;
  states: { id: string; key: string; type: string; initial: string | null; tags: string[] }[];
  edges: { source: string; target: string; label: string }[];
}

export function toJsonGraph(machine: Graphable): DiagramJson {
  const root = toDirectedGraph(machine);
  const states: DiagramJson['states'] = [];
  const edges: DiagramJson['edges'] = [];
  walk(root, (n) => {
    states.push({ id: n.id, key: n.stateNode.key, type: n.stateNode.type, initial: n.stateNode.initial?.target?.[0]?.id ?? null, tags: [...n.stateNode.tags] });
  });
  edges.push(...edgesOf(root));
  return { id: root.id, states, edges };
}
