/*
|--------------------------------------------------------------------------
| Routes: one file per area, imported here
|--------------------------------------------------------------------------
*/
import '#start/routes/system'
import '#start/routes/configs'
import '#start/routes/pages'
