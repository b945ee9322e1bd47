import { unstableSetRender } from 'antd'
import { createRoot, type Root } from 'react-dom/client'

/**
 * antd 5 renders a few things outside the React tree (the click wave of
 * buttons, static modals) with React 18's API; on React 19 it must be given
 * React 19's root API, else it warns and the effect is lost. Browser only:
 * called once by the browser entry (inertia/app.tsx).
 */
export function installAntdReact19Render() {
  const roots = new WeakMap<Element | DocumentFragment, Root>()
  unstableSetRender((node, container) => {
    let root = roots.get(container)
    if (!root) {
      root = createRoot(container)
      roots.set(container, root)
    }
    root.render(node)
    return async () => {
      await new Promise((resolve) => setTimeout(resolve, 0))
      root.unmount()
      roots.delete(container)
    }
  })
}
