/**
 * Stand-alone Bouncer abilities. Tern authorizes through policies
 * (app/policies); abilities that belong to no resource go here.
 */
export {}
