// Express 4 under an npm alias, to check body-parser 1's behaviour; its API is typed like 5's here.
declare module "express4" {
  import express from "express"
  export default express
}
