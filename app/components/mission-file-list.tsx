// Files of a mission (attachments, deliverables, evidence) as download links with type and size.
import type { MissionFileView } from '@/lib/missions/schemas';
import { formatBytes } from '@/lib/web/file-types';

export function MissionFileList({
  missionId,
  files,
  label,
}: {
  missionId: string;
  files: MissionFileView[];
  label: string;
}) {
  if (files.length === 0) return null;
  return (
    <ul aria-label={label}>
      {files.map((f) => (
        <li key={f.id}>
          <a href={`/api/missions/${missionId}/files/${f.id}`} download={f.filename}>
            {f.filename}
          </a>{' '}
          <span className="hint">
            ({f.contentType}, {formatBytes(f.size)})
          </span>
        </li>
      ))}
    </ul>
  );
}
