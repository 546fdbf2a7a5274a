/** Whether the ids of `narrow`'s rows are `whole`'s, in its order, some perhaps left out: a narrow read's rows against the whole read's. */
export function isSubsequence(narrow: readonly { id: string }[], whole: readonly { id: string }[]): boolean {
  let at = 0;
  for (const row of narrow) {
    while (at < whole.length && whole[at].id !== row.id) at += 1;
    if (at === whole.length) return false;
    at += 1;
  }
  return true;
}
