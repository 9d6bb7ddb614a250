'use client';
// The board's filters: whose missions, status, category, tag, minimum reward, text search, sort.
// Submitting puts them in the URL; the list reads them from there.
import { useState, type FormEvent } from 'react';
import { categorySchema, tagSchema } from '@/lib/fields';
import { missionSearchSchema } from '@/lib/missions/fields';
import { SORTS, STATUSES, type MissionFilters } from '@/lib/web/mission-filters';
import styles from './mission-board.module.css';

interface Props {
  initial: MissionFilters;
  signedIn: boolean;
  tokenSymbol: string;
  onApply: (filters: MissionFilters) => void;
}

export function MissionFiltersForm({ initial, signedIn, tokenSymbol, onApply }: Props) {
  const [f, setF] = useState(initial);
  const set = (field: keyof MissionFilters) => (e: { target: { value: string } }) =>
    setF({ ...f, [field]: e.target.value });
  const minRewardInvalid = f.minReward !== '' && !/^[0-9]+(\.[0-9]+)?$/.test(f.minReward);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!minRewardInvalid) onApply({ ...f, status: f.mine ? f.status : '' });
  }

  return (
    // The form itself is the search landmark; wrapping it in <search> adds a level.
    // biome-ignore lint/a11y/useSemanticElements: see the line above
    <form className={`panel ${styles.filters}`} onSubmit={submit} role="search" aria-label="Filter missions">
      <div className={`field ${styles.wide}`}>
        <label htmlFor="q">Search</label>
        <input
          id="q"
          type="search"
          value={f.q}
          onChange={set('q')}
          placeholder="Words in the title or description"
          maxLength={missionSearchSchema.maxLength!}
        />
      </div>
      {signedIn && (
        <div className="field">
          <label htmlFor="mine">Show</label>
          <select id="mine" value={f.mine} onChange={set('mine')}>
            <option value="">Open missions</option>
            <option value="client">Missions I posted</option>
            <option value="agent">Missions I work on</option>
          </select>
        </div>
      )}
      {signedIn && f.mine && (
        <div className="field">
          <label htmlFor="status">Status</label>
          <select id="status" value={f.status} onChange={set('status')}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.charAt(0) + s.slice(1).toLowerCase()}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor="category">Category</label>
        <input id="category" value={f.category} onChange={set('category')} maxLength={categorySchema.maxLength!} />
      </div>
      <div className="field">
        <label htmlFor="tag">Tag</label>
        <input id="tag" value={f.tag} onChange={set('tag')} maxLength={tagSchema.maxLength!} />
      </div>
      <div className="field">
        <label htmlFor="minReward">Minimum reward ({tokenSymbol})</label>
        <input
          id="minReward"
          inputMode="decimal"
          value={f.minReward}
          onChange={set('minReward')}
          aria-invalid={minRewardInvalid}
          aria-describedby={minRewardInvalid ? 'minReward-error' : undefined}
        />
        {minRewardInvalid && (
          <p id="minReward-error" className="field-error">
            Enter a number such as 10 or 2.5.
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="sort">Sort by</label>
        <select id="sort" value={f.sort} onChange={set('sort')}>
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <div className={`row ${styles.wide}`}>
        <button type="submit">Apply filters</button>
      </div>
    </form>
  );
}
