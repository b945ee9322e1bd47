/**
 * The administration SPA: Refine with the react-router binding (basename
 * `/admin`), the API providers, antd notifications, the panel's layout and
 * routes. Everything below `<Authenticated>` is for admins; the fallback
 * sends visitors to sign in and shows signed-in non-admins a 403 page.
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import { BrowserRouter, Navigate, Outlet, Route, Routes } from 'react-router'
import { Authenticated, Refine } from '@refinedev/core'
import { useNotificationProvider } from '@refinedev/antd'
import routerProvider, {
  DocumentTitleHandler,
  UnsavedChangesNotifier,
} from '@refinedev/react-router'
import { useI18n } from '~/lib/i18n'
import { apiUrl } from '~/lib/api_url'
import { adminHttp } from '~/admin/lib/http'
import { createDataProvider } from '~/admin/providers/data_provider'
import { ADMIN_BASENAME, createAuthProvider } from '~/admin/providers/auth_provider'
import { createAccessControlProvider } from '~/admin/providers/access_control_provider'
import { createI18nProvider } from '~/admin/providers/i18n_provider'
import { adminResources } from '~/admin/providers/resources'
import { enabledPluginUis, type AdminPluginUi } from '~/admin/plugins'
import { AdminLayout } from '~/admin/components/layout/admin_layout'
import { AuthFallback } from '~/admin/components/access/auth_fallback'
import { LandingPage } from '~/admin/pages/landing'
import { AdminNotFound } from '~/admin/pages/not_found'
import { UserList } from '~/admin/resources/users'
import { ShareList } from '~/admin/resources/shares'
import { DeliveryList } from '~/admin/resources/deliveries'
import { NotificationRouteList } from '~/admin/resources/notification_routes'
import { ConfigList, DEFAULT_CATEGORY } from '~/admin/resources/config'
import { PingvinImportPage } from '~/admin/pages/pingvin_import'
import { SetAppNameContext } from '~/admin/lib/app_name'
import { AppUrlContext } from '~/admin/lib/app_url'

/**
 * Loads the UIs of the enabled plugins (`GET /api/admin/plugins`), once the
 * user is known to be an admin.
 */
function PluginLoader(props: { onLoad: (plugins: [string, AdminPluginUi][]) => void }) {
  const { onLoad } = props
  useEffect(() => {
    adminHttp
      .get<{ enabledPlugins: string[] }>(apiUrl('system.admin.plugins'))
      .then((manifest) => onLoad(enabledPluginUis(manifest.enabledPlugins ?? [])))
      .catch(() => undefined)
  }, [onLoad])
  return null
}

/** The SPA (see the module comment). */
export function AdminApp(props: { appName: string; appUrl: string | null }) {
  const { t, locale, messages } = useI18n()
  // Follows a saved general.appName (see ~/admin/lib/app_name); an empty value is the default's, shown after a reload.
  const [appName, setAppName] = useState(props.appName)
  // The confirmed public address (see ~/admin/lib/app_url).
  const [appUrl, setAppUrl] = useState(props.appUrl)
  const appUrlState = useMemo(() => ({ appUrl, setAppUrl }), [appUrl])
  const [plugins, setPlugins] = useState<[string, AdminPluginUi][]>([])
  const providers = useMemo(
    () => ({
      data: createDataProvider(),
      auth: createAuthProvider(),
      access: createAccessControlProvider(),
      i18n: createI18nProvider(locale, messages),
    }),
    [locale, messages]
  )
  const resources = useMemo(() => adminResources(t, plugins), [t, plugins])
  const title = (text?: string) => (text ? `${text} - ${appName}` : appName)
  // The title handler runs on navigation only: a renamed app is put into the current title here.
  const shownName = useRef(props.appName)
  useEffect(() => {
    const old = shownName.current
    shownName.current = appName
    if (old === appName) return
    if (document.title === old) document.title = appName
    else if (document.title.endsWith(` - ${old}`))
      document.title = `${document.title.slice(0, -old.length)}${appName}`
  }, [appName])

  return (
    <SetAppNameContext.Provider value={setAppName}>
      <AppUrlContext.Provider value={appUrlState}>
        <BrowserRouter basename={ADMIN_BASENAME}>
          <Refine
            routerProvider={routerProvider}
            dataProvider={providers.data}
            authProvider={providers.auth}
            accessControlProvider={providers.access}
            i18nProvider={providers.i18n}
            notificationProvider={useNotificationProvider}
            resources={resources}
            options={{
              syncWithLocation: false,
              warnWhenUnsavedChanges: true,
              disableTelemetry: true,
              title: { text: appName },
            }}
          >
            <Routes>
              <Route
                element={
                  <Authenticated key="admin" fallback={<AuthFallback />}>
                    <PluginLoader onLoad={setPlugins} />
                    <AdminLayout appName={appName}>
                      <Outlet />
                    </AdminLayout>
                  </Authenticated>
                }
              >
                <Route index element={<LandingPage />} />
                <Route path="users" element={<UserList />} />
                <Route path="shares" element={<ShareList />} />
                <Route path="notifications" element={<NotificationRouteList />} />
                <Route path="deliveries" element={<DeliveryList />} />
                <Route
                  path="config"
                  element={<Navigate to={`/config/${DEFAULT_CATEGORY}`} replace />}
                />
                <Route path="config/:category" element={<ConfigList />} />
                <Route path="import/pingvin" element={<PingvinImportPage />} />
                {plugins.flatMap(([id, ui]) =>
                  (ui.routes ?? []).map((route) => (
                    <Route key={`${id}:${route.path}`} path={route.path} element={route.element} />
                  ))
                )}
                <Route path="*" element={<AdminNotFound />} />
              </Route>
            </Routes>
            <UnsavedChangesNotifier />
            <DocumentTitleHandler
              handler={({ resource }) => title(resource?.meta?.label as string | undefined)}
            />
          </Refine>
        </BrowserRouter>
      </AppUrlContext.Provider>
    </SetAppNameContext.Provider>
  )
}
