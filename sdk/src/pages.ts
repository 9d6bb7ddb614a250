// Cursor pages (docs/api.md#pagination) as one value: `await` a PagedList for one page, exactly as the API
// answers it, or `for await` over it for every item, page after page, following `nextCursor`.
import type { ApiPromise } from './answer.js';

export interface Page<Item> {
  items: Item[];
  nextCursor: string | null;
}

export class PagedList<Item, P extends Page<Item> = Page<Item>> implements PromiseLike<P>, AsyncIterable<Item> {
  private first: ApiPromise<P> | undefined;

  /** `load(cursor)` fetches one page; undefined for the first. Nothing is fetched until awaited or iterated. */
  constructor(private readonly load: (cursor: string | undefined) => ApiPromise<P>) {}

  private firstPage(): ApiPromise<P> {
    this.first ??= this.load(undefined);
    return this.first;
  }

  // biome-ignore lint/suspicious/noThenProperty: awaiting the pages gives the first page (docs/api.md#pagination)
  then<A = P, B = never>(
    onFulfilled?: ((page: P) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  /** The first page's JSON text, exactly as the API wrote it, unparsed. */
  text(): Promise<string> {
    return this.firstPage().text();
  }

  /** Every page in turn, the first included. */
  async *pages(): AsyncGenerator<P, void, undefined> {
    let page = await this.firstPage();
    yield page;
    while (page.nextCursor) {
      page = await this.load(page.nextCursor);
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every item of every page in one array (mind the size of what you ask for). */
  async toArray(): Promise<Item[]> {
    const items: Item[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
