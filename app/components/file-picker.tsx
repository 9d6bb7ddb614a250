'use client';
// Choose files to upload, with the limits and the accepted types in plain sight and the chosen
// files listed (size, remove) before anything is sent.
import { useId, useRef } from 'react';
import { acceptAttribute, checkFiles, describeAllowedTypes, formatBytes } from '@/lib/web/file-types';
import { useRuntimeConfig } from '@/lib/web/runtime-config-context';

interface Props {
  label: string;
  files: File[];
  onChange: (files: File[]) => void;
  error?: string;
}

export function FilePicker({ label, files, onChange, error }: Props) {
  const { uploads } = useRuntimeConfig();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const problems = checkFiles(files, uploads);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const shownError = error ?? (problems.length > 0 ? problems.join(' ') : undefined);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        type="file"
        multiple
        accept={acceptAttribute(uploads.allowedTypes)}
        aria-describedby={`${hintId}${shownError ? ` ${errorId}` : ''}`}
        aria-invalid={Boolean(shownError)}
        onChange={(e) => {
          onChange([...files, ...Array.from(e.target.files ?? [])]);
          if (input.current) input.current.value = '';
        }}
      />
      <p id={hintId} className="hint">
        Up to {uploads.maxFiles} files, {formatBytes(uploads.maxFileBytes)} each. Accepted:{' '}
        {describeAllowedTypes(uploads.allowedTypes)}.
      </p>
      {files.length > 0 && (
        <ul aria-label="Chosen files">
          {files.map((file, i) => (
            // Two chosen files may share a name; the place tells them apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: see the line above
            <li key={`${file.name}-${i}`} className="row">
              <span>
                {file.name} ({formatBytes(file.size)})
              </span>
              <button
                type="button"
                className="secondary"
                onClick={() => onChange(files.filter((_, j) => j !== i))}
                aria-label={`Remove ${file.name}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {shownError && (
        <p id={errorId} className="field-error" role="alert">
          {shownError}
        </p>
      )}
    </div>
  );
}
