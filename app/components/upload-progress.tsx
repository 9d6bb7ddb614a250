// How much of an upload has been sent, as a labelled progress bar.
import { formatBytes } from '@/lib/web/file-types';
import type { UploadProgress as Progress } from '@/lib/web/upload';

export function UploadProgress({ progress }: { progress: Progress }) {
  const percent = progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <div className="field" data-testid="upload-progress">
      <label htmlFor="upload-progress">Uploading: {percent}%</label>
      <progress id="upload-progress" max={progress.total} value={progress.loaded} style={{ width: '100%' }}>
        {percent}%
      </progress>
      <p className="hint">
        {formatBytes(progress.loaded)} of {formatBytes(progress.total)} sent
      </p>
    </div>
  );
}
