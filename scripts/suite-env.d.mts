/** The suite's environment and the bundle moved aside, if any (suite-env.mjs). */
export function suiteEnv(env?: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; movedCa: string | null };
