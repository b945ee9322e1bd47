/**
 * antd's Dropdown alone, as a module of its own: deferred_dropdown.tsx
 * imports it on demand (a dynamic import of 'antd' would bring all of antd).
 */
import { Dropdown } from 'antd'

export default Dropdown
