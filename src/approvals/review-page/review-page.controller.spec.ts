import { readdirSync } from 'node:fs';
import { loggablePath } from '../../common/logging/logger';
import { REVIEW_PAGE_FILES, REVIEW_PAGE_NAMES } from './review-page.controller';

describe('the review page files', () => {
  // A module the list leaves out would answer 404 and break the page; one it names but the folder lacks stops the start.
  it('lists every script and stylesheet of its folder, and only those', () => {
    const files = readdirSync(__dirname).filter((name) => /\.(js|css)$/.test(name));
    expect(Object.keys(REVIEW_PAGE_FILES).sort()).toEqual(files.sort());
  });

  // A page file the logger masked would hide which file a browser could not load.
  it.each(REVIEW_PAGE_NAMES)('logs /review/%s as it is', (name) => {
    expect(loggablePath(`/review/${name}`)).toBe(`/review/${name}`);
  });
});
