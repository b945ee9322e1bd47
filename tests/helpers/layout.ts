/**
 * "Nothing is cut off", measured in the page: the page
 * does not scroll sideways, and every visible control, table cell, label,
 * heading and alert text of `scope` is whole on screen. An element counts as
 * cut off when part of it lies outside the viewport or outside an ancestor
 * that clips (overflow other than visible: a table's scroll wrapper), when its
 * own text is clipped (an ellipsis), or when something else covers its middle
 * (a sticky table column over a cell).
 */
import type { Page } from 'playwright'

/** What a person must see and reach; `[data-allow-clip]` marks a deliberate exception (with a tooltip). */
const CHECKED = [
  'button',
  'a[href]',
  'input:not([type=hidden]):not([type=file]):not([type=radio]):not([type=checkbox])',
  'select',
  'textarea',
  '[role=button]',
  'th',
  'td',
  'label',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  '.ant-alert-message',
  '.ant-alert-description',
  '.ant-typography',
].join(',')

/**
 * Descriptions of what is cut off in `scope` (a CSS selector, the whole
 * document by default); an empty list when nothing is. The page's vertical
 * scroll position is restored afterwards.
 */
export function cutOff(page: Page, scope = 'body'): Promise<string[]> {
  return page.evaluate(
    ({ scope: selector, checked }) => {
      const doc = (globalThis as any).document
      const win = globalThis as any
      const problems: string[] = []
      const viewportWidth = doc.documentElement.clientWidth
      if (doc.scrollingElement.scrollWidth > viewportWidth) {
        problems.push(
          `the page scrolls sideways: ${doc.scrollingElement.scrollWidth} px in ${viewportWidth} px`
        )
      }
      const describe = (element: any) => {
        const text = String(element.getAttribute('aria-label') ?? element.textContent ?? '')
          .trim()
          .replace(/\s+/g, ' ')
          .slice(0, 40)
        const tag = element.tagName.toLowerCase()
        const testId = element.closest('[data-testid]')?.getAttribute('data-testid')
        return `<${tag}> "${text}"${testId ? ` in [data-testid=${testId}]` : ''}`
      }
      const root = doc.querySelector(selector)
      if (!root) return [`no element matches ${selector}`]
      const startY = win.scrollY
      for (const element of root.querySelectorAll(checked)) {
        if (
          element.closest(
            '[data-allow-clip], [aria-hidden=true], .ant-table-measure-row, .ant-select-selection-search'
          )
        )
          continue
        const style = win.getComputedStyle(element)
        if (
          style.visibility === 'hidden' ||
          style.display === 'none' ||
          Number(style.opacity) === 0
        )
          continue
        const box = element.getBoundingClientRect()
        if (box.width < 1 || box.height < 1) continue
        // The part of the element that no ancestor clips away horizontally.
        let left = Math.max(box.left, 0)
        let right = Math.min(box.right, viewportWidth)
        let hiddenByAncestor = false
        for (
          let ancestor = element.parentElement;
          ancestor && ancestor !== doc.documentElement;
          ancestor = ancestor.parentElement
        ) {
          const ancestorStyle = win.getComputedStyle(ancestor)
          // Hidden, or transparent until hovered (antd's number-input arrows): not on screen.
          if (
            ancestorStyle.display === 'none' ||
            ancestorStyle.visibility === 'hidden' ||
            Number(ancestorStyle.opacity) === 0
          ) {
            hiddenByAncestor = true
          }
          if (ancestorStyle.overflowX === 'visible') continue
          const clip = ancestor.getBoundingClientRect()
          left = Math.max(left, clip.left)
          right = Math.min(right, clip.right)
        }
        if (hiddenByAncestor) continue
        const shown = Math.max(0, right - left)
        if (shown < box.width - 1) {
          problems.push(
            `${describe(element)} shows ${Math.round(shown)} of ${Math.round(box.width)} px`
          )
          continue
        }
        // Its own text clipped (text-overflow, overflow hidden).
        if (
          style.display !== 'inline' &&
          style.overflowX !== 'visible' &&
          element.scrollWidth > element.clientWidth + 1 &&
          !['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName)
        ) {
          problems.push(
            `${describe(element)} clips its text: ${element.scrollWidth} px in ${element.clientWidth} px`
          )
          continue
        }
        // Covered: what is on top at its middle must be the element itself or inside it.
        const middleY = box.top + win.scrollY + box.height / 2
        win.scrollTo(win.scrollX, middleY - win.innerHeight / 2)
        const after = element.getBoundingClientRect()
        const x = (Math.max(after.left, 0) + Math.min(after.right, viewportWidth)) / 2
        const y = after.top + after.height / 2
        const top = doc.elementFromPoint(x, y)
        if (top && top !== element && !element.contains(top) && !top.contains(element)) {
          problems.push(`${describe(element)} is covered by ${describe(top)}`)
        }
      }
      win.scrollTo(win.scrollX, startY)
      return problems
    },
    { scope, checked: CHECKED }
  )
}
