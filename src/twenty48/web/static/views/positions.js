// A game's positions as the server computed them, fetched in pages and kept in a small cache, so
// that scrubbing anywhere in a long game costs at most one page request and stepping costs none.
// The page never computes a position: it shows what the server says move n led to.

import { call } from "../api.js";

export const PAGE = 200; // positions per request (the server allows up to 1,000)
const KEEP = 50; // pages kept: 10,000 positions, a few MB of plain arrays

export class Positions {
  // `shared`: a leaderboard game's public positions, not one of the player's own games.
  constructor(gameId, shared = false) {
    this.gameId = gameId;
    this.base = shared ? "/api/public/games" : "/api/games";
    this.total = null; // positions in the game (move 0 .. total - 1), known after the first page
    this.pages = new Map(); // page index -> positions, in least-recently-used order
    this.loading = new Map(); // page index -> its request
  }

  // The position after move `n`, if its page is here (without a request).
  peek(n) {
    const page = this.pages.get(Math.floor(n / PAGE));
    if (!page) return undefined;
    this.touch(Math.floor(n / PAGE), page);
    return page[n % PAGE];
  }

  // The position after move `n`, from the cache or the server; undefined past the end.
  async get(n) {
    return this.peek(n) ?? (await this.load(Math.floor(n / PAGE)))[n % PAGE];
  }

  // Ask for the page holding `n` ahead of need (playing, stepping toward a page's end).
  prefetch(n) {
    const index = Math.floor(n / PAGE);
    if (n >= 0 && (this.total === null || n < this.total) && !this.pages.has(index)) this.load(index).catch(() => {});
  }

  load(index) {
    if (!this.loading.has(index)) {
      const request = call("GET", `${this.base}/${this.gameId}/positions?from=${index * PAGE}&count=${PAGE}`)
        .then((answer) => {
          this.total = answer.total;
          this.touch(index, answer.positions);
          return answer.positions;
        })
        .finally(() => this.loading.delete(index));
      this.loading.set(index, request);
    }
    return this.loading.get(index);
  }

  touch(index, page) {
    this.pages.delete(index);
    this.pages.set(index, page);
    if (this.pages.size > KEEP) this.pages.delete(this.pages.keys().next().value);
  }
}
