/**
 * antd's Tooltip alone, as a module of its own: deferred_tooltip.tsx imports
 * it on demand (a dynamic import of 'antd' would bring all of antd).
 */
import { Tooltip } from 'antd'

export default Tooltip
