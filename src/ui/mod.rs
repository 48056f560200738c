pub mod serve;
