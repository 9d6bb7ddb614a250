// missions download: a mission file (attachment, delivery or evidence) saved to disk, as `gh
// release download` does — the stored name in the current directory unless --output says otherwise,
// an existing file kept unless --clobber.
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { answer, jsonOption, type JsonFlag } from '../answer.js';
import { downloadMissionFile, localName } from '../../session/mission-files.js';
import { printLine } from '../output.js';
import type { Session } from '../../session/session.js';

export function registerFileCommands(missions: Command, session: Session): void {
  missions
    .command('download')
    .description("save one of a mission's files (ids are in `missions show`)")
    .argument('<id>', 'mission id')
    .argument('<fileId>', 'file id')
    .option('-o, --output <path>', 'where to write it (default: its name, in the current directory)')
    .option('--clobber', 'overwrite a file that exists')
    .addOption(jsonOption())
    .action(async (id: string, fileId: string, opts: JsonFlag & { output?: string; clobber?: boolean }) => {
      const tm = session.client();
      const { file, blob } = await downloadMissionFile(tm, id, fileId);
      const path = opts.output ?? localName(file, fileId);
      try {
        await writeFile(path, new Uint8Array(await blob.arrayBuffer()), { flag: opts.clobber ? 'w' : 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST')
          throw new Error(`${path} exists: use --clobber to overwrite it, or --output`);
        throw error;
      }
      const saved = {
        path,
        filename: file?.filename ?? null,
        contentType: file?.contentType ?? blob.type,
        size: blob.size,
      };
      await answer(opts, saved, (s) => printLine(`Saved ${s.path} (${s.contentType}, ${s.size} B)`));
    });
}
