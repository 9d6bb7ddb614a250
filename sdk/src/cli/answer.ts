// The one rule every command follows: `--json` prints the API's answer exactly as it came,
// otherwise a renderer writes it for a person.
import { Option } from 'commander';
import { printJson } from './output.js';

export interface JsonFlag {
  json?: boolean;
}

export const jsonOption = () => new Option('--json', "print the API's JSON answer");

export async function answer<T>(opts: JsonFlag, result: T, human: (result: T) => void | Promise<void>): Promise<void> {
  if (opts.json) printJson(result);
  else await human(result);
}
