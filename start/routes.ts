/*
|--------------------------------------------------------------------------
| Routes: one file per area, imported here
|--------------------------------------------------------------------------
*/
import '#start/routes/system'
import '#start/routes/configs'
import '#start/routes/auth'
import '#start/routes/users'
import '#start/routes/notifications'
import '#start/routes/oauth'
import '#start/routes/shares'
import '#start/routes/reverse_shares'
import '#start/routes/pages_upload'
import '#start/routes/pages_share'
import '#start/routes/pages_styles'
import '#start/routes/pages_my_shares'
import '#start/routes/pages_reverse_shares'
import '#start/routes/pages'
import '#start/routes/pages_admin'
