/**
 * A name a person gives (a worker id, a project, a backlog item, a host) is looked up in tables
 * all over the daemon; a name that JavaScript's objects already carry (`constructor`, `toString`,
 * `hasOwnProperty`, `__proto__`, …) was accepted and then failed far away ("failed before it
 * started: unknown reason", issue 43). It is plain bad input, refused where the name is read.
 */
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__']);

export function isPrototypeName(name: string): boolean {
  return PROTOTYPE_NAMES.has(name);
}

/** The sentence a refusal adds for such a name. */
export function prototypeNameWhy(kind: string, name: string): string {
  return `${kind} ${JSON.stringify(name)} is a name JavaScript's objects already carry (like constructor or toString), which kingshand's tables cannot hold; pick another, e.g. ${name}-1`;
}
