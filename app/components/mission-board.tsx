'use client';
// The missions board: filters from the URL, one page of GET /api/missions, and keyset paging
// (the cursors seen so far are kept, so "Previous" is as cheap as "Next").
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import type { MissionList } from '@/lib/missions/schemas';
import { apiFetch } from '@/lib/web/api-client';
import { filtersToApiQuery, filtersToSearch, readFilters, type MissionFilters } from '@/lib/web/mission-filters';
import { useRewardToken } from '@/lib/web/runtime-config-context';
import { useSession } from '@/lib/web/use-session';
import { MissionCard } from './mission-card';
import { MissionFiltersForm } from './mission-filters-form';
import { ErrorAlert, LoadingMessage } from './request-status';
import styles from './mission-board.module.css';

const PAGE_SIZE = 10;

export function MissionBoard() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const token = useRewardToken();
  const { session } = useSession();
  const filters = readFilters(new URLSearchParams(params.toString()));
  const filterKey = filtersToSearch(filters);
  // cursors[i] opens page i + 1; page 0 needs none. Reset whenever the filters change.
  const [paging, setPaging] = useState({ key: filterKey, cursors: [] as string[] });
  const cursors = paging.key === filterKey ? paging.cursors : [];
  const cursor = cursors.at(-1);

  const query = useQuery({
    queryKey: ['missions', filterKey, cursor ?? ''],
    queryFn: () => apiFetch<MissionList>(`/api/missions?${filtersToApiQuery(filters, token, cursor, PAGE_SIZE)}`),
    placeholderData: keepPreviousData,
  });

  function apply(next: MissionFilters) {
    const search = filtersToSearch(next);
    router.push(search ? `${pathname}?${search}` : pathname);
  }

  const page = cursors.length + 1;
  return (
    <>
      <MissionFiltersForm
        key={filterKey}
        initial={filters}
        signedIn={Boolean(session)}
        tokenSymbol={token.symbol}
        onApply={apply}
      />
      <section aria-labelledby="results-heading" aria-busy={query.isFetching}>
        <h2 id="results-heading">
          {filters.mine === 'client'
            ? 'Missions you posted'
            : filters.mine === 'agent'
              ? 'Missions you work on'
              : 'Open missions'}
          {page > 1 && `, page ${page}`}
        </h2>
        {query.isPending && <LoadingMessage label="Loading missions" />}
        {query.isError && (
          <ErrorAlert error={query.error} title="Could not load missions" onRetry={() => void query.refetch()} />
        )}
        {/* A searched page may be empty and not the last: each request reads a bounded stretch of the board. */}
        {query.data && query.data.items.length === 0 && (
          <p>
            {query.data.nextCursor
              ? 'No matches on this page; the search goes on on the next page.'
              : 'No missions match these filters.'}
          </p>
        )}
        {query.data && query.data.items.length > 0 && (
          <ul className={styles.list} data-testid="mission-list">
            {query.data.items.map((m) => (
              <MissionCard key={m.id} mission={m} token={token} />
            ))}
          </ul>
        )}
        <nav className={styles.pager} aria-label="Pages">
          <button
            type="button"
            className="secondary"
            disabled={page === 1 || query.isFetching}
            onClick={() => setPaging({ key: filterKey, cursors: cursors.slice(0, -1) })}
          >
            Previous page
          </button>
          <button
            type="button"
            className="secondary"
            disabled={!query.data?.nextCursor || query.isFetching}
            onClick={() =>
              query.data?.nextCursor && setPaging({ key: filterKey, cursors: [...cursors, query.data.nextCursor] })
            }
          >
            Next page
          </button>
        </nav>
      </section>
    </>
  );
}
