// A lesson's panel as the lesson specs drive it: where it is, which step it shows, and an
// answer typed and checked as a learner would.
import { byTestId, fill } from './app.mjs';

/** The lesson panel. */
export const panel = (page) => page.locator(byTestId('lesson-panel'));

/** Waits until the lesson panel shows step `n`. */
export const atStep = (page, n) => page.locator(`${byTestId('lesson-panel')}[data-step="${n}"]`).waitFor();

/** Types `value` as the answer, presses Check and returns the feedback: right or not, its words. */
export async function answer(page, value) {
  await fill(page, 'lesson-answer', value);
  await page.locator(byTestId('lesson-check')).click();
  const fb = page.locator(byTestId('lesson-feedback'));
  await fb.waitFor();
  return { correct: (await fb.getAttribute('data-correct')) === 'true', text: (await fb.innerText()) ?? '' };
}
