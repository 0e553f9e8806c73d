/** Fixture access for the dialog tests: the copied captures, plain text parsed as a host would. */
import { parsePlain, type Screen } from '../../io/screen/index.ts';
export { fixtureScreen, fixtureText } from './helpers.ts';
export const parseFixtureText = (text: string): Screen => parsePlain(text);
