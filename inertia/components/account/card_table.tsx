import type { ReactNode } from 'react'

/**
 * Tables that turn into a list of cards on phones: give the
 * antd Table `className={CARD_TABLE}` and start each cell with a
 * {@link CellLabel}. Below 992 px the stylesheet of the page shell
 * (resources/views/inertia_layout.edge, `.tern-card-table`) keeps of the
 * header row only a bar of the sortable columns (to sort by) and lays each
 * row out as a card: the cells with {@link CELL_TITLE} side by side as its
 * title, every other cell on its own line with its column's name before the
 * value, the expand button and the actions cell last. Plain CSS media
 * queries, so the server-rendered first paint is already right on a phone.
 * From 992 px on, the table is a table and must fit its width (no sideways
 * scrolling, no sticky column).
 */
export const CARD_TABLE = 'tern-card-table'

/** Column class of the cells that make a card's title (their labels are only read by screen readers). */
export const CELL_TITLE = 'tern-cell-title'

/** Column class of cells with long text: on phones the column's name goes above the value, not beside it. */
export const CELL_STACKED = 'tern-cell-stacked'

/** Column class of the actions cell (a row of buttons at the bottom of the card). */
export const CELL_ACTIONS = 'tern-cell-actions'

/**
 * The column's name inside a cell: hidden on wide screens (the header row
 * names the column), shown before the value on phones, where the header row
 * is hidden.
 */
export function CellLabel({ children }: { children: ReactNode }) {
  return <span className="tern-cell-label">{children}</span>
}
