/**
 * Every Bouncer policy of the core, by name (`ctx.bouncer.with('SharePolicy')`).
 * Lazy imports: a policy's module loads on first use. Plugins authorize with
 * their own policies passed by class (`ctx.bouncer.with(MyPolicy)`).
 */
export const policies = {
  SharePolicy: () => import('#policies/share_policy'),
  UserPolicy: () => import('#policies/user_policy'),
  ApiTokenPolicy: () => import('#policies/api_token_policy'),
  ReverseSharePolicy: () => import('#policies/reverse_share_policy'),
  NotificationRoutePolicy: () => import('#policies/notification_route_policy'),
}
